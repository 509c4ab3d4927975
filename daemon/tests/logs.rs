//! `modctld serve --log-format json` (issue #28): one JSON object per line on
//! stderr; a request's line carries its request id (the one answered in
//! `X-Request-Id`), route, status, latency and key id, and no line carries
//! a key's secret.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::support::seed;

#[test]
fn json_logs_are_one_object_a_line_and_name_the_request_without_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    let key = seed(&db, "free", "discord", "112233445566778899");
    let mut child = Command::new(env!("CARGO_BIN_EXE_modctld"))
        .env_clear()
        .env("MODCTLD_DB", &db)
        .args(["serve", "--listen", "127.0.0.1:0", "--log-format", "json"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (lines_tx, lines) = mpsc::channel::<String>();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    std::thread::spawn(move || {
        for line in stderr.lines() {
            let Ok(line) = line else { return };
            if lines_tx.send(line).is_err() {
                return;
            }
        }
    });
    let next = || {
        let line = lines
            .recv_timeout(Duration::from_secs(30))
            .expect("a log line");
        let value: serde_json::Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("not one JSON object ({e}): {line}"));
        (line, value)
    };
    let mut seen = Vec::new();
    let address = loop {
        let (line, value) = next();
        seen.push(line);
        if value["message"] == "serving" {
            break value["address"].as_str().unwrap().to_owned();
        }
    };

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (status, id) = runtime.block_on(async {
        let response = reqwest::Client::new()
            .get(format!(
                "http://{address}/api/v1/servers/112233445566778899/cases"
            ))
            .bearer_auth(&key)
            .send()
            .await
            .unwrap();
        let id = response.headers()["x-request-id"]
            .to_str()
            .unwrap()
            .to_owned();
        (response.status(), id)
    });
    assert_eq!(status, 200);

    let request = loop {
        let (line, value) = next();
        seen.push(line);
        if value["message"] == "request" {
            break value;
        }
    };
    assert_eq!(request["level"], "INFO", "{request}");
    assert_eq!(request["status"], 200, "{request}");
    assert!(request["elapsed_ms"].is_u64(), "{request}");
    assert_eq!(request["span"]["request_id"], id.as_str(), "{request}");
    assert_eq!(
        request["span"]["route"], "/api/v1/servers/{id}/cases",
        "the route's template: {request}"
    );
    let key_id = key.split('_').nth(1).unwrap();
    assert_eq!(request["span"]["key_id"], key_id, "{request}");

    let _ = child.kill();
    let _ = child.wait();
    let secret = key.rsplit('_').next().unwrap();
    while let Ok(line) = lines.recv_timeout(Duration::from_secs(2)) {
        seen.push(line);
    }
    for line in &seen {
        assert!(
            !line.contains(secret),
            "the key's secret in the log: {line}"
        );
    }
}
