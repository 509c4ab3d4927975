//! The moderation endpoints of [`Client`]: actions, cases, strikes and jails.

use modctl_types::moderation::{
    Action, ActionPreview, ActionRequest, ActionResponse, Case, CaseList, JailList, JailRecord,
    KnownMember, KnownMembers, MemberInfo, StrikeList, StrikeSummary,
};
use modctl_types::query::CASES_MAX_LIMIT;
use reqwest::Method;

use crate::client::{CaseQuery, Client};
use crate::error::Error;

impl Client {
    /// `POST /servers/{id}/actions/{action}`: performs a moderation action.
    /// The response says whether the platform applied it; a case is recorded
    /// either way.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::moderation::{Action, ActionRequest};
    /// let request = ActionRequest {
    ///     user_id: "800000000000000004".into(),
    ///     reason: Some("spam".into()),
    ///     delete_message_days: Some(1),
    ///     ..Default::default()
    /// };
    /// let outcome = client.perform_action("112233445566778899", Action::Ban, &request).await?;
    /// println!("case #{}: applied={} ({})", outcome.case_id, outcome.applied, outcome.detail);
    /// # Ok(()) }
    /// ```
    pub async fn perform_action(
        &self,
        server: &str,
        action: Action,
        request: &ActionRequest,
    ) -> Result<ActionResponse, Error> {
        self.send(
            self.request(
                Method::POST,
                &["servers", server, "actions", action.as_str()],
            )
            .json(request),
        )
        .await
    }

    /// `POST /servers/{id}/actions/{action}?dry_run=true`: what the action
    /// would do (the platform call, the DM, the strikes and the ladder step
    /// it would reach), checked as the action is (the same errors), with
    /// nothing recorded and nothing sent to the platform.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::moderation::{Action, ActionRequest};
    /// let request = ActionRequest { user_id: "800000000000000004".into(), ..Default::default() };
    /// let preview = client.preview_action("112233445566778899", Action::Warn, &request).await?;
    /// if let Some(step) = &preview.escalation {
    ///     println!("would reach the ladder's step at {}: {}", step.at, step.detail);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn preview_action(
        &self,
        server: &str,
        action: Action,
        request: &ActionRequest,
    ) -> Result<ActionPreview, Error> {
        self.send(
            self.request(
                Method::POST,
                &["servers", server, "actions", action.as_str()],
            )
            .query(&[("dry_run", "true")])
            .json(request),
        )
        .await
    }

    /// Like [`Client::perform_action`], with an `Idempotency-Key`: retrying
    /// with the same key within 24 hours returns the first response and does
    /// nothing again, so a retry after a timeout is safe.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::types::moderation::{Action, ActionRequest};
    /// let request = ActionRequest { user_id: "100003".into(), ..Default::default() };
    /// let first = client.perform_action_idempotent("-1001234567890", Action::Kick, &request, "kick-100003-1").await?;
    /// let again = client.perform_action_idempotent("-1001234567890", Action::Kick, &request, "kick-100003-1").await?;
    /// assert_eq!(first.case_id, again.case_id);
    /// # Ok(()) }
    /// ```
    pub async fn perform_action_idempotent(
        &self,
        server: &str,
        action: Action,
        request: &ActionRequest,
        idempotency_key: &str,
    ) -> Result<ActionResponse, Error> {
        let request = self
            .request(
                Method::POST,
                &["servers", server, "actions", action.as_str()],
            )
            .header("Idempotency-Key", idempotency_key)
            .json(request);
        self.send(request).await
    }

    /// `GET /servers/{id}/cases`: one page of cases, newest first. Pass the
    /// page's `next_before` as `query.before` for the next one, or use
    /// [`Client::all_cases`]. The query's filters combine: here the bans of
    /// the last week that the platform did not apply.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::CaseQuery;
    /// use modctl_client::types::{moderation::Action, Timestamp};
    /// let week_ago = Timestamp::now() - std::time::Duration::from_secs(7 * 86_400);
    /// let query = CaseQuery {
    ///     limit: Some(10),
    ///     action: Some(Action::Ban),
    ///     applied: Some(false),
    ///     since: Some(week_ago),
    ///     ..Default::default()
    /// };
    /// let page = client.cases("112233445566778899", &query).await?;
    /// for case in &page.cases {
    ///     println!("#{} {} {}", case.id, case.action, case.user_id);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn cases(&self, server: &str, query: &CaseQuery) -> Result<CaseList, Error> {
        self.send(
            self.request(Method::GET, &["servers", server, "cases"])
                .query(query),
        )
        .await
    }

    /// Every case of a server (optionally of one user), newest first,
    /// following the pages.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let cases = client.all_cases("112233445566778899", Some("800000000000000004")).await?;
    /// println!("{} cases", cases.len());
    /// # Ok(()) }
    /// ```
    pub async fn all_cases(&self, server: &str, user_id: Option<&str>) -> Result<Vec<Case>, Error> {
        let query = CaseQuery {
            user_id: user_id.map(str::to_owned),
            ..CaseQuery::default()
        };
        self.all_cases_where(server, &query).await
    }

    /// Every case matching `query`'s filters, newest first, following the
    /// pages (`query.limit` and `query.before` are the pager's).
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// use modctl_client::CaseQuery;
    /// let by_expiry = CaseQuery { actor: Some("system:expiry".into()), ..Default::default() };
    /// let cases = client.all_cases_where("112233445566778899", &by_expiry).await?;
    /// println!("{} jails ended by themselves", cases.len());
    /// # Ok(()) }
    /// ```
    pub async fn all_cases_where(
        &self,
        server: &str,
        query: &CaseQuery,
    ) -> Result<Vec<Case>, Error> {
        let mut query = CaseQuery {
            limit: Some(CASES_MAX_LIMIT),
            before: None,
            ..query.clone()
        };
        let mut all = Vec::new();
        loop {
            let page = self.cases(server, &query).await?;
            all.extend(page.cases);
            match page.next_before {
                Some(before) => query.before = Some(before),
                None => return Ok(all),
            }
        }
    }

    /// `GET /servers/{id}/cases/{case_id}`: one case, by its number on the
    /// server (`case.id`, an action response's `case_id`).
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let case = client.case("112233445566778899", 42).await?;
    /// println!("{} by {}: {}", case.action, case.actor, case.detail);
    /// # Ok(()) }
    /// ```
    pub async fn case(&self, server: &str, case_id: i64) -> Result<Case, Error> {
        self.send(self.request(
            Method::GET,
            &["servers", server, "cases", &case_id.to_string()],
        ))
        .await
    }

    /// `GET /servers/{id}/strikes`: members with strikes, most active first.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// for member in client.strikes("112233445566778899").await? {
    ///     println!("{}: {} active, {} total", member.user_id, member.active, member.total);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn strikes(&self, server: &str) -> Result<Vec<StrikeSummary>, Error> {
        let list: StrikeList = self
            .send(self.request(Method::GET, &["servers", server, "strikes"]))
            .await?;
        Ok(list.strikes)
    }

    /// `GET /servers/{id}/jails`: active jails.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// for jail in client.jails("112233445566778899").await? {
    ///     println!("{} jailed since {}", jail.user_id, jail.since);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn jails(&self, server: &str) -> Result<Vec<JailRecord>, Error> {
        let list: JailList = self
            .send(self.request(Method::GET, &["servers", server, "jails"]))
            .await?;
        Ok(list.jails)
    }

    /// `GET /servers/{id}/members?name=N` (issue #27): the members the
    /// daemon knows by `name` (ignoring case and a leading `@`), from the
    /// names it has seen on the platform. Several may share a name; none
    /// are listed when it has seen no member of that name.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let found = client.members_named("112233445566778899", "@alice").await?;
    /// if let [alice] = found.as_slice() {
    ///     println!("alice is {}", alice.user_id);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn members_named(&self, server: &str, name: &str) -> Result<Vec<KnownMember>, Error> {
        let list: KnownMembers = self
            .send(
                self.request(Method::GET, &["servers", server, "members"])
                    .query(&[("name", name)]),
            )
            .await?;
        Ok(list.members)
    }

    /// `GET /servers/{id}/members/{user_id}` (issue #27): what the daemon
    /// knows of one member: their name as last seen (`None` when it has
    /// seen none: a member never seen is still a valid target), their
    /// strikes in force and whether they are jailed. Asks no platform.
    ///
    /// ```no_run
    /// # async fn run(client: modctl_client::Client) -> Result<(), modctl_client::Error> {
    /// let member = client.member("112233445566778899", "800000000000000004").await?;
    /// println!("{}: {:?}", member.user_id, member.name);
    /// # Ok(()) }
    /// ```
    pub async fn member(&self, server: &str, user_id: &str) -> Result<MemberInfo, Error> {
        self.send(self.request(Method::GET, &["servers", server, "members", user_id]))
            .await
    }
}
