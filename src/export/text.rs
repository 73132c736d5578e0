//! The text of a club export, checked by the rules the forms and the API apply to the same
//! text: names by [`check_name`] and no name taken for another (TR39, as
//! [`crate::service::history::check_club_names`] in a club), titles by [`table::title`],
//! reasons by [`table::reason`]. Each refusal names the field from the document's root.

use std::collections::BTreeSet;

use crate::format::Refusal;
use crate::rules::check_name;
use crate::rules::table::{self, TITLE_MAX, look_alike, name_key};

use super::ClubExport;
use super::check::Heading;

/// Checks every text field of `export` before anything is written; `headings` are its
/// sessions', in order. Errors: the first fault, naming its field (`sessions[0].title`,
/// `people[1].names[0]`).
pub fn check_text<S>(export: &ClubExport<S>, headings: &[Heading]) -> Result<(), Refusal> {
    let kept = table::club_name(&export.name).map_err(|m| refused("name", &export.name, &m))?;
    if kept != export.name {
        let m = format!("write the name as {kept:?}, without spaces around it, in NFC form");
        return Err(refused("name", &export.name, &m));
    }
    check_names(names(export, headings))?;
    for (k, s) in export.sessions.iter().enumerate() {
        if let Some(t) = &s.title {
            check_title(&format!("sessions[{k}].title"), t, "a title")?;
        }
    }
    for (i, n) in export.nights.iter().enumerate() {
        check_title(&format!("nights[{i}].title"), &n.title, "a night's title")?;
        for (k, p) in n.payments.iter().enumerate() {
            if let Some(r) = &p.void_reason {
                table::reason(r).map_err(|m| {
                    refused(&format!("nights[{i}].payments[{k}].void_reason"), r, &m)
                })?;
            }
        }
    }
    Ok(())
}

/// A title as the title forms keep it, and not blank (the export's titles are never blank).
fn check_title(field: &str, text: &str, what: &str) -> Result<(), Refusal> {
    let kept = table::title(text, TITLE_MAX, what).map_err(|m| refused(field, text, &m))?;
    if kept.is_empty() {
        return Err(refused(
            field,
            text,
            &format!("{what} is 1 to {TITLE_MAX} characters"),
        ));
    }
    Ok(())
}

/// Every name of `export` with its field, in document order: the roster, each session's
/// players, the people's names and the payments' payers and payees.
fn names<'a, S>(export: &'a ClubExport<S>, headings: &'a [Heading]) -> Vec<(String, &'a str)> {
    let mut out: Vec<(String, &str)> = Vec::new();
    for (i, n) in export.players.iter().enumerate() {
        out.push((format!("players[{i}]"), n));
    }
    for (k, s) in headings.iter().enumerate() {
        for (j, n) in s.players.iter().enumerate() {
            out.push((format!("sessions[{k}].session.players[{j}]"), n));
        }
    }
    for (i, p) in export.people.iter().enumerate() {
        out.push((format!("people[{i}].display_name"), &p.display_name));
        for (k, n) in p.names.iter().enumerate() {
            out.push((format!("people[{i}].names[{k}]"), n));
        }
    }
    for (i, night) in export.nights.iter().enumerate() {
        for (k, p) in night.payments.iter().enumerate() {
            let at = format!("nights[{i}].payments[{k}]");
            out.push((format!("{at}.payer"), &p.payer));
            out.push((format!("{at}.payee"), &p.payee));
        }
    }
    out
}

/// Each name fit by [`check_name`], and none taken for an earlier one of another spelling:
/// in a club Cyrillic "Аnn" cannot sit down where Ann plays, so it cannot arrive with her.
fn check_names(names: Vec<(String, &str)>) -> Result<(), Refusal> {
    // Distinct names only: a long export repeats a few names thousands of times.
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut distinct: Vec<&str> = Vec::new();
    for (field, name) in names {
        if !seen.insert(name) {
            continue;
        }
        check_name(name).map_err(|m| refused(&field, name, &m))?;
        let key = name_key(name);
        if let Some(other) = distinct
            .iter()
            .find(|o| name_key(o) != key && look_alike(name, o))
        {
            let m = format!(
                "it looks like {other:?}, another name in this club: write the name as the \
                 club knows it, or choose a name that does not look like it"
            );
            return Err(refused(&field, name, &m));
        }
        distinct.push(name);
    }
    Ok(())
}

/// The most characters of a refused text quoted back: the field is named, so a long text
/// (a backup may hold megabytes in one) need not be sent back whole.
const QUOTED_MOST: usize = 40;

fn refused(field: &str, text: &str, message: &str) -> Refusal {
    let quoted = match text.char_indices().nth(QUOTED_MOST) {
        Some((end, _)) => format!("{:?}…", &text[..end]),
        None => format!("{text:?}"),
    };
    Refusal::document(field, format!("{quoted}: {message}"))
}
