//! A key never sees another team's servers.

use modctl_e2e::{ALPHA_DISCORD, ALPHA_SLACK, ALPHA_TELEGRAM, BETA_DISCORD, Fixture};

#[tokio::test]
async fn each_team_lists_only_its_own_servers() {
    let fixture = Fixture::start();
    let alpha: Vec<String> = fixture
        .daemon
        .client(&fixture.alpha_ro)
        .servers()
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.id)
        .collect();
    let mut expected = vec![ALPHA_TELEGRAM, ALPHA_DISCORD, ALPHA_SLACK];
    expected.sort();
    assert_eq!(alpha, expected);

    let beta = fixture
        .daemon
        .client(&fixture.beta_rw)
        .servers()
        .await
        .unwrap();
    assert_eq!(beta.len(), 1);
    assert_eq!(beta[0].id, BETA_DISCORD);
    assert_eq!(
        fixture
            .daemon
            .client(&fixture.beta_rw)
            .me()
            .await
            .unwrap()
            .server_count,
        1
    );
}

#[tokio::test]
async fn a_team_without_servers_gets_an_empty_list() {
    let fixture = Fixture::start();
    fixture.daemon.team("gamma", modctl_types::Plan::Free);
    let key = fixture.daemon.key("gamma", modctl_types::Scope::Read);
    let servers = fixture.daemon.client(&key).servers().await.unwrap();
    assert!(servers.is_empty());
}
