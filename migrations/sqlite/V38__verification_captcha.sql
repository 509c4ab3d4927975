-- The captcha of `welcome.verification: captcha` (issue #26), kept with
-- the member's pending verification so a restart between the challenge
-- and the answer keeps it. `challenge`: the current code (digits; NULL
-- until the first is issued), never logged nor returned by the API;
-- `entered`: the digits pressed so far on Telegram's keypad (cleared with
-- each new challenge and each wrong answer); `wrong_answers`: wrong answers
-- so far, all challenges together; `challenges`: how many were issued.
ALTER TABLE verifications ADD COLUMN challenge TEXT;
ALTER TABLE verifications ADD COLUMN entered TEXT NOT NULL DEFAULT '';
ALTER TABLE verifications ADD COLUMN wrong_answers INTEGER NOT NULL DEFAULT 0;
ALTER TABLE verifications ADD COLUMN challenges INTEGER NOT NULL DEFAULT 0;
