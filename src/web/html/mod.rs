//! The HTML pages: plain forms, no JavaScript needed; a POST redirects (303) on success or
//! re-renders with the submitted values and the field's error (422).

pub mod assets;
pub mod club_import;
pub mod club_pages;
pub mod history_pages;
pub mod icons;
pub mod night_pages;
pub mod offline;
mod page_error;
pub mod preview;
mod session_pages;
pub mod sheet;
mod sheet_forms;
mod sheet_routes;

use std::collections::HashMap;

use axum::Router;
use axum::routing::{get, post};

use super::AppState;
use page_error::ErrorPage;
pub use page_error::{PageError, error_page, field_words, with_retry_after_of};
pub use session_pages::offered_games;
use session_pages::{create, list, new_form};
use sheet_forms::{close, enter_hand, mark_paid, reopen, table_change, undo, void_payment};
use sheet_forms::{expected_events, with_reason};

/// The pages' routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(list))
        .route("/sessions/new", get(new_form))
        .route("/sessions", post(create))
        .route("/sessions/{id}", get(sheet_routes::sheet))
        .route("/sessions/{id}/why", get(sheet_routes::why))
        .route("/sessions/{id}/hands", post(enter_hand))
        .route(
            "/sessions/{id}/preview",
            post(preview::preview).layer(axum::extract::DefaultBodyLimit::max(
                preview::PREVIEW_BODY_LIMIT,
            )),
        )
        .route("/sessions/{id}/close", post(close))
        .route("/sessions/{id}/undo", post(undo))
        .route("/sessions/{id}/payments", post(mark_paid))
        .route("/sessions/{id}/payments/void", post(void_payment))
        .route("/sessions/{id}/reopen", post(reopen))
        .route("/sessions/{id}/table", post(table_change))
        .route("/sessions/{id}/live", get(sheet_routes::live))
        .merge(club_pages::routes())
        .merge(history_pages::routes())
        .merge(night_pages::routes())
        .merge(club_import::routes())
        .merge(icons::routes())
        .merge(assets::routes())
        .merge(offline::routes())
}

fn form_map(form: Vec<(String, String)>) -> HashMap<String, String> {
    form.into_iter().collect()
}
