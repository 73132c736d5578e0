//! Restoring a club from its backup file (`scorekeeper/club@1`, the club page's "whole club
//! (backup)" download): a form with the file, a name and a passphrase.

use askama::Template;
use askama_web::WebTemplate;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, Multipart, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum_extra::extract::cookie::CookieJar;

use super::{PageError, error_page};
use crate::error::AppError;
use crate::export::{ClubImportDoc, club};
use crate::rules::field::{Field, Part};
use crate::rules::fields::read_json;
use crate::web::AppState;
use crate::web::api::exports::IMPORT_LIMIT;
use crate::web::auth::{Client, login_cookie};

/// The restore page's routes.
pub fn routes() -> Router<AppState> {
    Router::new().route(
        "/clubs/import",
        get(form)
            .post(restore)
            .layer(DefaultBodyLimit::max(IMPORT_LIMIT)),
    )
}

#[derive(Template, WebTemplate)]
#[template(path = "clubs/import.html")]
struct ImportPage {
    name: String,
    error: Option<PageError>,
}

impl ImportPage {
    fn invalid(&self, field: &str) -> bool {
        self.error.as_ref().and_then(|e| e.field.as_deref()) == Some(field)
    }
}

async fn form() -> ImportPage {
    ImportPage {
        name: String::new(),
        error: None,
    }
}

/// The form's three fields; the file is read whole (up to [`IMPORT_LIMIT`]).
#[derive(Default)]
struct Submitted {
    name: String,
    passphrase: String,
    backup: Bytes,
}

fn damaged(field: &str, e: impl std::fmt::Display) -> AppError {
    AppError::BadRequest {
        field: field.into(),
        message: format!("the form could not be read ({e}); try again"),
    }
}

async fn read_form(mut multipart: Multipart) -> Result<Submitted, AppError> {
    let mut submitted = Submitted::default();
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|e| damaged("backup", e))?
    {
        match field.name().unwrap_or_default() {
            "name" => submitted.name = field.text().await.map_err(|e| damaged("name", e))?,
            "passphrase" => {
                submitted.passphrase = field.text().await.map_err(|e| damaged("passphrase", e))?;
            }
            "backup" => {
                submitted.backup = field.bytes().await.map_err(|e| damaged("backup", e))?;
            }
            _ => {}
        }
    }
    Ok(submitted)
}

/// Reads the backup file, its session documents left as text borrowed from it until each
/// is imported, naming the place in it that is wrong.
fn read_backup(bytes: &[u8]) -> Result<ClubImportDoc<'_>, AppError> {
    read_json(bytes).map_err(|e| AppError::BadRequest {
        field: "backup".into(),
        message: format!(
            "this is not a club's backup file ({} at {})",
            e.message, e.field
        ),
    })
}

/// Where a field is in a club export, as players count: `sessions[1].session.events[0].bid`
/// → "session 2, event 1, Bid".
fn place_words(field: &Field) -> String {
    let parts = field.parts();
    let [Part::Name(sessions), Part::Index(k), rest @ ..] = parts else {
        return super::field_words(field);
    };
    if sessions != "sessions" || rest.is_empty() {
        return super::field_words(field);
    }
    let session = k + 1;
    let rest = match rest {
        [Part::Name(s), more @ ..] if s == "session" => more,
        _ => rest,
    };
    match rest {
        [Part::Name(events), Part::Index(i), inner @ ..]
            if events == "events" && !inner.is_empty() =>
        {
            format!(
                "session {session}, event {}, {}",
                i + 1,
                super::field_words(&Field::from_parts(inner))
            )
        }
        _ => format!(
            "session {session}, {}",
            super::field_words(&Field::from_parts(rest))
        ),
    }
}

/// Creates the club from the file and logs this browser in; a refusal re-renders the form
/// (422), nothing written. While another import is read the file is not read: 503 with
/// `Retry-After` ([`crate::web::api::exports::ImportGate`]).
async fn restore(
    State(state): State<AppState>,
    Client(client): Client,
    jar: CookieJar,
    request: Request,
) -> Response {
    let _reading = match state.imports.enter() {
        Ok(permit) => permit,
        Err(e) => return error_page(e),
    };
    let multipart = match Multipart::from_request(request, &state).await {
        Ok(multipart) => multipart,
        Err(e) => return e.into_response(),
    };
    let mut name = String::new();
    let attempt = async {
        let submitted = read_form(multipart).await?;
        name = submitted.name.trim().to_string();
        let export = read_backup(&submitted.backup)?;
        let wanted = Some(name.as_str()).filter(|n| !n.is_empty());
        club::import_club(
            &state.pool,
            &state.limiter,
            client,
            wanted,
            &submitted.passphrase,
            &export,
        )
        .await
    };
    match attempt.await {
        Ok((club, token, _)) => (
            jar.add(login_cookie(token)),
            Redirect::to(&format!("/clubs/{}", club.id)),
        )
            .into_response(),
        Err(e @ (AppError::BadRequest { .. } | AppError::Refused(_))) => {
            let mut error = PageError::from(&e);
            // A refusal inside the file points at the file, in the sheet's words.
            if let AppError::Refused(r) = &e {
                error.field = Some("backup".into());
                error.message = format!("Backup file, {}: {}", place_words(&r.field), r.message);
            }
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                ImportPage {
                    name,
                    error: Some(error),
                },
            )
                .into_response()
        }
        Err(e) => error_page(e),
    }
}

#[cfg(test)]
mod tests {
    use super::place_words;
    use crate::rules::field::Field;

    fn place_words_of(text: &str) -> String {
        place_words(&Field::from(text))
    }

    #[test]
    fn places_in_the_file_are_counted_from_one() {
        assert_eq!(
            place_words_of("sessions[1].session.events[0].bid"),
            "session 2, event 1, Bid"
        );
        assert_eq!(
            place_words_of("sessions[0].recorded_at[2]"),
            "session 1, Recorded at 3"
        );
        assert_eq!(place_words_of("players[3]"), "Players 4");
    }
}
