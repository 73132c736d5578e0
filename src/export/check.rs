//! Checking a club export before anything of it is written: format, text, times, people,
//! nights, and that every session replays. An import reads each session document from its
//! text only when its turn comes ([`SessionText`]), so checking and writing a large export
//! hold one session's events and ledger at a time, not the whole club's.

use std::borrow::Cow;
use std::collections::BTreeSet;

use chrono::DateTime;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::{CLUB_FORMAT, ClubExport, ExportedSession, text};
use crate::format::{LedgerDoc, Refusal, SessionDoc, replay};
use crate::rules::Field;
use crate::rules::fields::read_json;

/// What the checks of a whole club read of each session without its events: the game, the
/// currency and the players in seat order.
#[derive(Debug, Clone, Deserialize)]
pub struct Heading {
    /// The game id, as the registry lists it.
    pub game: String,
    /// ISO currency code (`"USD"` when the document gives none, as in [`SessionDoc`]).
    #[serde(default = "usd")]
    pub currency: String,
    /// Player names in seat order.
    pub players: Vec<String>,
}

fn usd() -> String {
    "USD".into()
}

/// The most bytes of one session document's text a club import reads: what
/// `POST /api/v1/sessions/import` reads of one (axum's default body limit), about 11,000
/// hands. Reading and replaying a session holds several times its text at once, so this
/// bounds an import's memory however its sessions are cut (`benches/imports.py`).
pub const SESSION_TEXT_MOST: usize = 2 * 1024 * 1024;

/// A session document as a club export holds it: read ([`SessionDoc`], an export being
/// written or a test's) or still its text (`&RawValue`, an import being read).
pub trait SessionText {
    /// The length of its text in bytes, if it is still text.
    fn text_len(&self) -> Option<usize>;
    /// The session's [`Heading`]. Errors: the document's field at fault, named from the
    /// session document's root.
    fn heading(&self) -> Result<Heading, Refusal>;
    /// The whole session document. Errors: as [`SessionText::heading`].
    fn document(&self) -> Result<Cow<'_, SessionDoc>, Refusal>;
}

impl SessionText for SessionDoc {
    fn text_len(&self) -> Option<usize> {
        None
    }

    fn heading(&self) -> Result<Heading, Refusal> {
        Ok(Heading {
            game: self.game.clone(),
            currency: self.currency.clone(),
            players: self.players.clone(),
        })
    }

    fn document(&self) -> Result<Cow<'_, SessionDoc>, Refusal> {
        Ok(Cow::Borrowed(self))
    }
}

impl SessionText for &RawValue {
    fn text_len(&self) -> Option<usize> {
        Some(self.get().len())
    }

    fn heading(&self) -> Result<Heading, Refusal> {
        read_json(self.get().as_bytes()).map_err(|e| Refusal::from_rule(e, None))
    }

    fn document(&self) -> Result<Cow<'_, SessionDoc>, Refusal> {
        read_json(self.get().as_bytes())
            .map(Cow::Owned)
            .map_err(|e| Refusal::from_rule(e, None))
    }
}

/// `refusal` of session `k`'s document, named from the export's root
/// (`sessions[2].session.events[5].bid`).
fn in_session(k: usize, refusal: Refusal) -> Refusal {
    let inner = match refusal.event_index {
        Some(i) => Field::name("session")
            .then("events")
            .index(i)
            .join(refusal.field),
        None => Field::name("session").join(refusal.field),
    };
    Refusal {
        field: Field::name("sessions").index(k).join(inner),
        ..refusal
    }
}

/// Checks a club export before anything is written: format, text ([`text::check_text`]),
/// times, people, nights, and that every session replays; nothing is kept. Errors: the
/// first fault, its field named from the root (`sessions[2].session.events[5].bid`).
pub fn check_club_export<S: SessionText>(export: &ClubExport<S>) -> Result<(), Refusal> {
    if export.format != CLUB_FORMAT {
        return Err(Refusal::document(
            "format",
            format!("\"{}\" is not {CLUB_FORMAT}", export.format),
        ));
    }
    let headings = export
        .sessions
        .iter()
        .enumerate()
        .map(|(k, s)| heading(k, &s.session))
        .collect::<Result<Vec<_>, _>>()?;
    text::check_text(export, &headings)?;
    for (k, s) in export.sessions.iter().enumerate() {
        checked_session(k, s)?;
    }
    check_people(export)?;
    check_nights(export, &headings)
}

/// The heading of session `k`'s document `session`, refused when its text is over
/// [`SESSION_TEXT_MOST`].
fn heading(k: usize, session: &impl SessionText) -> Result<Heading, Refusal> {
    if let Some(len) = session.text_len().filter(|&len| len > SESSION_TEXT_MOST) {
        return Err(Refusal::document(
            format!("sessions[{k}].session"),
            format!(
                "this session document is over {} MiB ({len} bytes): a session is imported \
                 up to {} MiB, about 11,000 hands",
                len / (1024 * 1024),
                SESSION_TEXT_MOST / (1024 * 1024)
            ),
        ));
    }
    session.heading().map_err(|r| in_session(k, r))
}

/// Session `k` of an export read, its times checked and replayed: the document and its
/// ledger. Errors: the first fault, named from the export's root.
pub fn checked_session<S: SessionText>(
    k: usize,
    s: &ExportedSession<S>,
) -> Result<(Cow<'_, SessionDoc>, LedgerDoc), Refusal> {
    let at = |field: &str| format!("sessions[{k}].{field}");
    let doc = s.session.document().map_err(|r| in_session(k, r))?;
    check_time(&s.created_at).map_err(|m| Refusal::document(at("created_at"), m))?;
    if !s.recorded_at.is_empty() && s.recorded_at.len() != doc.events.len() {
        return Err(Refusal::document(
            at("recorded_at"),
            format!(
                "{} times for {} events: give one per event, or none",
                s.recorded_at.len(),
                doc.events.len()
            ),
        ));
    }
    for (i, t) in s.recorded_at.iter().enumerate() {
        check_time(t).map_err(|m| Refusal::document(at(&format!("recorded_at[{i}]")), m))?;
    }
    let ledger = replay(&doc).map_err(|r| in_session(k, r))?;
    Ok((doc, ledger))
}

/// People: distinct display names, no name of two people (each fit: [`text::check_text`]).
fn check_people<S>(export: &ClubExport<S>) -> Result<(), Refusal> {
    let mut shown = BTreeSet::new();
    let mut names = BTreeSet::new();
    for (i, p) in export.people.iter().enumerate() {
        let at = |field: &str| format!("people[{i}].{field}");
        if p.display_name.chars().count() > 40 || !shown.insert(p.display_name.to_lowercase()) {
            return Err(Refusal::document(
                at("display_name"),
                format!(
                    "{:?} is another person's name, or over 40 characters",
                    p.display_name
                ),
            ));
        }
        if p.names.is_empty() {
            return Err(Refusal::document(
                at("names"),
                "a person sat under at least one name",
            ));
        }
        for (k, n) in p.names.iter().enumerate() {
            if !names.insert(n.as_str()) {
                return Err(Refusal::document(
                    at(&format!("names[{k}]")),
                    format!("{n:?} is a name of two people"),
                ));
            }
        }
    }
    Ok(())
}

/// A game's name in player words, its id when unknown.
fn game_words(id: &str) -> String {
    crate::registry::game(id).map_or_else(|| id.to_string(), |g| g.name.to_string())
}

/// Nights: times, each session in one night at most, one currency per night, payments
/// above zero between two names. `headings` are the sessions', in export order.
fn check_nights<S>(export: &ClubExport<S>, headings: &[Heading]) -> Result<(), Refusal> {
    let mut seen = BTreeSet::new();
    for (i, n) in export.nights.iter().enumerate() {
        let at = |field: &str| format!("nights[{i}].{field}");
        check_time(&n.created_at).map_err(|m| Refusal::document(at("created_at"), m))?;
        let mut priced = Vec::with_capacity(n.sessions.len());
        for (k, &s) in n.sessions.iter().enumerate() {
            let found = export.sessions.get(s).zip(headings.get(s));
            let Some((session, heading)) = found.filter(|_| seen.insert(s)) else {
                return Err(Refusal::document(
                    at(&format!("sessions[{k}]")),
                    format!("{s} is no session of the export, or one already in a night"),
                ));
            };
            // Named by its place in the export: the sessions have no ids yet.
            priced.push(crate::history::night::Priced {
                words: match session.title.as_deref().map(str::trim) {
                    Some(t) if !t.is_empty() => format!("{t} (sessions[{s}])"),
                    _ => format!("sessions[{s}] ({})", game_words(&heading.game)),
                },
                currency: heading.currency.clone(),
            });
            crate::history::night::one_currency(&[], &priced)
                .map_err(|m| Refusal::document(at(&format!("sessions[{k}]")), m))?;
        }
        check_payments(i, n)?;
    }
    Ok(())
}

/// Night `i`'s payments: between two names, above zero, at RFC 3339 times.
fn check_payments(i: usize, night: &super::ExportedNight) -> Result<(), Refusal> {
    for (k, p) in night.payments.iter().enumerate() {
        let at = |field: &str| format!("nights[{i}].payments[{k}].{field}");
        if p.payer == p.payee {
            return Err(Refusal::document(
                at("payee"),
                "someone cannot pay themselves",
            ));
        }
        if p.amount.cents() <= 0 {
            return Err(Refusal::document(
                at("amount"),
                "a payment is more than 0.00",
            ));
        }
        check_time(&p.recorded_at).map_err(|m| Refusal::document(at("recorded_at"), m))?;
        if let Some(t) = &p.voided_at {
            check_time(t).map_err(|m| Refusal::document(at("voided_at"), m))?;
        }
    }
    Ok(())
}

fn check_time(text: &str) -> Result<(), String> {
    DateTime::parse_from_rfc3339(text).map(|_| ()).map_err(|e| {
        format!("{text:?} is not an RFC 3339 time such as \"2026-11-22T20:15:00Z\": {e}")
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::export::ClubImportDoc;
    use serde_json::json;

    /// A club backup of one Auction Pitch session whose events are `events`.
    fn backup(events: serde_json::Value) -> String {
        json!({
            "format": "scorekeeper/club@1", "name": "Thursday", "players": ["Ann", "Bob"],
            "sessions": [{
                "created_at": "2026-11-20T19:00:00Z",
                "session": {
                    "format": "scorekeeper/session@1", "game": "auction_pitch",
                    "agreements": { "stake": "0.10" }, "players": ["Ann", "Bob"],
                    "events": events
                }
            }]
        })
        .to_string()
    }

    #[test]
    fn an_import_reads_each_session_only_when_checked_and_names_faults_from_the_root() {
        let text = backup(json!([{ "type": "hand", "dealer": "Zed" }]));
        let import: ClubImportDoc = read_json(text.as_bytes()).unwrap();
        // The session document is still its text, as sent.
        assert!(import.sessions[0].session.get().starts_with("{\"format\""));
        let refusal = check_club_export(&import).unwrap_err();
        assert_eq!(refusal.event_index, Some(0));
        let read: ClubExport = serde_json::from_str(&text).unwrap();
        assert_eq!(check_club_export(&read).unwrap_err(), refusal);
        assert!(
            refusal
                .field
                .to_string()
                .starts_with("sessions[0].session.events[0]."),
            "{}",
            refusal.field
        );
        // Times are checked before the session replays, and the format before anything.
        let mut read = read;
        read.sessions[0].recorded_at = vec!["yesterday".into()];
        assert_eq!(
            check_club_export(&read).unwrap_err().field,
            "sessions[0].recorded_at[0]"
        );
        read.format = "scorekeeper/session@1".into();
        assert_eq!(check_club_export(&read).unwrap_err().field, "format");
    }

    #[test]
    fn a_session_document_over_the_import_size_is_refused_unread() {
        let events: Vec<_> = (0..12_000)
            .map(|_| json!({ "type": "note", "text": "x".repeat(200) }))
            .collect();
        let text = backup(json!(events));
        let import: ClubImportDoc = read_json(text.as_bytes()).unwrap();
        assert!(import.sessions[0].session.get().len() > SESSION_TEXT_MOST);
        let refusal = check_club_export(&import).unwrap_err();
        assert_eq!(refusal.field.to_string(), "sessions[0].session");
        assert!(
            refusal.message.contains("up to 2 MiB"),
            "{}",
            refusal.message
        );
    }

    #[test]
    fn a_session_document_of_the_wrong_shape_is_named_inside_the_export() {
        let text = backup(json!([])).replace("\"game\"", "\"gmae\"");
        let import: ClubImportDoc = read_json(text.as_bytes()).unwrap();
        let refusal = check_club_export(&import).unwrap_err();
        // The heading is read first: the game is missing.
        assert_eq!(refusal.field.to_string(), "sessions[0].session.game");
        let fine = backup(json!([]));
        let import: ClubImportDoc = read_json(fine.as_bytes()).unwrap();
        assert_eq!(check_club_export(&import), Ok(()));
        let (doc, _) = checked_session(0, &import.sessions[0]).unwrap();
        assert_eq!((doc.game.as_str(), doc.players.len()), ("auction_pitch", 2));
    }
}
