"""Schemathesis hooks for `scripts/fuzz`: aim generated requests at the seeded data.

Random path ids would only ever reach the daemon's 404 for an unclaimed server,
and random user ids only its "not a member" answers, so nearly every request
would stop at the first check. This module steers most cases to what
`modctld demo` seeds (daemon/src/operator/demo.rs: three servers connected to
the simulator with members) and the rest to generated values or servers
nobody claimed, so the 404 and 400 paths stay fuzzed too.

It also holds a check of its own, `read_only_key_writes_nothing` (see there).

Loaded through SCHEMATHESIS_HOOKS (see scripts/fuzz). One `map_case` hook is
used because case hooks run in both the coverage and the fuzzing phase, and it
sees the whole request: the member chosen for `user_id` is one of the server
in the path. Schemathesis re-validates a case a hook changed, so a negative
case whose only violation was replaced here is counted as positive, and the
negative-data check never blames the daemon for accepting valid input.

Choices are a hash of the generated case, not `random`: the same seed gives
the same requests whatever the order or number of workers, so a CI failure
reproduces with `FUZZ_SEED`.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

import schemathesis

# Keep in sync with daemon/src/operator/demo.rs; scripts/fuzz checks that the
# daemon lists exactly these servers before it starts, so drift fails loudly
# instead of quietly turning every request into a 404.
MEMBERS: dict[str, tuple[str, ...]] = {
    # discord: owner, bot, moderator, Alice, Bob, Ada (an admin above the
    # bot), Carol, Dave, Erin
    "112233445566778899": (
        "800000000000000001",
        "800000000000000002",
        "800000000000000003",
        "800000000000000004",
        "800000000000000005",
        "800000000000000006",
        "800000000000000007",
        "800000000000000008",
        "800000000000000009",
    ),
    # telegram: owner, bot, Alice, Bob, Carol, Dave, Erin
    "-1001234567890": ("100001", "100002", "100003", "100004", "100005", "100006", "100007"),
    # slack: owner, bot, Alice, Bob, Carol, Dave, Erin
    "T0DEMO0001": (
        "U0DEMO0001",
        "U0DEMO0002",
        "U0DEMO0003",
        "U0DEMO0004",
        "U0DEMO0005",
        "U0DEMO0006",
        "U0DEMO0007",
    ),
}

SERVERS = tuple(MEMBERS)
ALL_MEMBERS = tuple(member for members in MEMBERS.values() for member in members)

# Out of 100: how often each generated value is replaced by seeded data.
SERVER_ID_PERCENT = 80
USER_ID_PERCENT = 60
# Case ids are small integers counted across servers; the actions fuzzed
# before the case reads create a few dozen.
CASE_ID_PERCENT = 50
CASE_ID_MAX = 40
# Server ids no team claimed, for the other 20 in 100 when schemathesis itself
# put a seeded id there (it reuses ids it saw in responses, so without these
# the 404 paths would almost never be reached): one well-formed id per
# platform, and ids of no platform's shape.
UNCLAIMED = (
    "998877665544332211",
    "-1009876543210",
    "T0NOTCLAIMED",
    "0",
    "",
    "not a server",
    "\u00fcn\u00efc\u00f6d\u00e9-\U0001f600",
    "9" * 300,
)


def _stable(value: Any) -> str:
    """What JSON cannot hold, without `repr`'s memory addresses (NOT_SET bodies)."""
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    return type(value).__name__


def _draw(case: Any, salt: str) -> int:
    """A number in 0..2**64 fixed by the generated case and `salt`."""
    generated = json.dumps(
        [case.operation.label, case.path_parameters, case.query, case.body],
        sort_keys=True,
        default=_stable,
    )
    digest = hashlib.sha256(f"{salt}\0{generated}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _pick(number: int, percent: int, choices: tuple[Any, ...]) -> Any | None:
    """One of `choices` in `percent` cases out of 100, else None (keep the generated value)."""
    if number % 100 >= percent:
        return None
    return choices[(number // 100) % len(choices)]


@schemathesis.hook
def map_case(context, case):
    path = dict(case.path_parameters or {})
    server = path.get("id")
    if "id" in path:
        number = _draw(case, "id")
        seeded = _pick(number, SERVER_ID_PERCENT, SERVERS)
        if seeded is not None:
            path["id"] = server = seeded
        elif server in MEMBERS:
            path["id"] = server = UNCLAIMED[(number // 100) % len(UNCLAIMED)]
    if "case_id" in path:
        case_id = _pick(_draw(case, "case_id"), CASE_ID_PERCENT, tuple(range(1, CASE_ID_MAX + 1)))
        if case_id is not None:
            # Keep the generated type: coverage sends path values as strings.
            path["case_id"] = str(case_id) if isinstance(path["case_id"], str) else case_id
    if path != (case.path_parameters or {}):
        case.path_parameters = path

    # A member of the server in the path when it is a seeded one, else of any
    # seeded server (a well-formed id of another platform is worth sending too).
    members = MEMBERS.get(server, ALL_MEMBERS) if isinstance(server, str) else ALL_MEMBERS
    member = _pick(_draw(case, "user_id"), USER_ID_PERCENT, members)
    if member is not None:
        if isinstance(case.body, dict) and "user_id" in case.body:
            case.body = {**case.body, "user_id": member}
        if isinstance(case.query, dict) and "user_id" in case.query:
            case.query = {**case.query, "user_id": member}
        # `/members/{user_id}` and `/members/{user_id}/strikes/clear`.
        if isinstance(case.path_parameters, dict) and "user_id" in case.path_parameters:
            case.path_parameters = {**case.path_parameters, "user_id": member}
    # `POST /config/clone`'s source: another seeded server now and then.
    if isinstance(case.body, dict) and "from" in case.body:
        source = _pick(_draw(case, "from"), SERVER_ID_PERCENT, SERVERS)
        if source is not None:
            case.body = {**case.body, "from": source}
    return case


# Paths of the POSTs that are reads (docs/api.md, "Automod").
READ_POSTS = ("/servers/{id}/automod/test",)


@schemathesis.check
def read_only_key_writes_nothing(ctx, response, case):
    """In the read-only pass (FUZZ_READ_ONLY_PASS=1), no write may succeed.

    The other checks would accept a 200 to a write: it is a documented
    status. Here it means a read-only key changed something.
    """
    if os.environ.get("FUZZ_READ_ONLY_PASS") != "1" or case.method.upper() in ("GET", "HEAD", "OPTIONS"):
        return None
    # POSTs that change nothing and take the read scope (their operation says
    # `x-required-scope: read`): a read-only key may use them.
    if case.operation.label.endswith(READ_POSTS):
        return None
    if response.status_code < 400:
        raise AssertionError(
            f"{case.method} {case.formatted_path} answered {response.status_code} to the read-only key; "
            "a write needs the write scope (403)"
        )
    return None
