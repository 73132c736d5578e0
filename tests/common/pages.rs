//! What every game's page tests do the same way, through the forms as a phone does:
//! start a session from the new-session form, post a hand form, read the ledger and the
//! session document back.

use serde_json::Value;

use super::{Reply, TestApp};

/// Posts the new-session form `fields` (the game, `player_1`…, `a.<agreement>`…) and
/// follows nothing: the sheet's address the form redirects to and the session's id. Fails
/// unless the form is accepted (303).
pub async fn start_session(app: &TestApp, fields: &[(&str, &str)]) -> (String, String) {
    let reply = app.post_form("/sessions", fields).await;
    assert_eq!(reply.status.as_u16(), 303, "{}", reply.body);
    let sheet = reply.location.expect("redirect to the sheet");
    let id = sheet.rsplit('/').next().unwrap().to_string();
    (sheet, id)
}

/// Posts a hand form (`form`, field and value) to the sheet at `sheet`.
pub async fn post_hand(app: &TestApp, sheet: &str, form: &[(String, String)]) -> Reply {
    let fields: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    app.post_form(&format!("{sheet}/hands"), &fields).await
}

/// The ledger document of session `id` (`GET /api/v1/sessions/{id}/ledger`).
pub async fn ledger_of(app: &TestApp, id: impl std::fmt::Display) -> Value {
    app.get(&format!("/api/v1/sessions/{id}/ledger"))
        .await
        .json()
}

/// The session document of session `id` (`GET /api/v1/sessions/{id}/export`).
pub async fn export_of(app: &TestApp, id: impl std::fmt::Display) -> Value {
    app.get(&format!("/api/v1/sessions/{id}/export"))
        .await
        .json()
}
