//! `modctld serve --metrics-listen` (issue #28): the metrics on their own
//! listener, off the API's.

use std::io::{BufRead, BufReader};

use crate::support::seed;

#[test]
fn serve_with_metrics_listen_serves_prometheus_text_apart_from_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("modctld.db");
    seed(&db, "free", "discord", "112233445566778899");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_modctld"))
        .env_clear()
        .env("MODCTLD_DB", &db)
        .env("MODCTLD_METRICS_LISTEN", "127.0.0.1:0")
        .args(["serve", "--listen", "127.0.0.1:0", "--log-format", "json"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let (mut api, mut metrics) = (None, None);
    while api.is_none() || metrics.is_none() {
        let line = lines.next().expect("a log line").unwrap();
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        let address = value["address"].as_str().map(str::to_owned);
        match value["message"].as_str() {
            Some("serving") => api = address,
            Some("serving metrics") => metrics = address,
            _ => {}
        }
    }
    let (api, metrics) = (api.unwrap(), metrics.unwrap());
    assert_ne!(api, metrics);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (scraped, on_the_api) = runtime.block_on(async {
        let scraped = reqwest::get(format!("http://{metrics}/metrics"))
            .await
            .unwrap();
        let scraped = (scraped.status(), scraped.text().await.unwrap());
        let on_the_api = reqwest::get(format!("http://{api}/metrics"))
            .await
            .unwrap()
            .status();
        (scraped, on_the_api)
    });
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(scraped.0, 200);
    assert!(
        scraped
            .1
            .contains("# TYPE modctld_store_writer_queue_depth gauge"),
        "{}",
        scraped.1
    );
    assert_eq!(on_the_api, 404, "the API's listener does not serve metrics");
}
