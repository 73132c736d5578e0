//! Corrections that never erase: `void` (undo) and `correction` (replace) events.
//!
//! The original event and its postings stay in the ledger as history. A correction replays
//! the session as it now stands (the corrected event in its place, a voided one left out)
//! and posts only the difference, so every balance, score and game follows while the
//! record shows what was first entered, what replaced it and why (issue: "corrections
//! never erase: they reverse and re-enter"). These two event types extend
//! `scorekeeper/session@1`; see README, "Corrections".

use serde::Deserialize;
use serde_json::{Map, Value};

use super::SessionDoc;
use super::replay::{Refusal, Run, event_object};
use crate::ledger::Postings;
use crate::rules::{self, Entry, fields};

/// `void`: undo an earlier event (`event`: its 0-based index), e.g. "undo last hand".
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Void {
    #[serde(rename = "type")]
    _kind: String,
    event: usize,
    reason: Option<String>,
}

/// `correction`: replace an earlier event with `replacement`, an event of the same type.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Correction {
    #[serde(rename = "type")]
    _kind: String,
    event: usize,
    replacement: Map<String, Value>,
    reason: Option<String>,
}

/// The longest reason accepted, in characters.
const REASON_MAX: usize = 200;

/// True for the event types handled here.
pub(super) fn is_correction(kind: &str) -> bool {
    matches!(kind, "void" | "correction")
}

fn refuse(index: usize, field: impl Into<String>, message: impl Into<String>) -> Refusal {
    Refusal {
        event_index: Some(index),
        field: field.into(),
        message: message.into(),
    }
}

/// Applies the `void` or `correction` at `index` to the run so far: checks the target,
/// replays the effective events with the change, and returns the new run with an entry
/// whose postings are the difference (summing to zero). `effective` is updated in place.
/// Errors: a target that is not an earlier, still standing event other than a close or a
/// correction; a replacement the rules refuse (its fields are named `replacement.<field>`);
/// a change that makes a later event invalid; any correction after the close.
pub(super) fn apply(
    doc: &SessionDoc,
    game: &rules::Game,
    run: &Run,
    effective: &mut Vec<(usize, Value)>,
    index: usize,
    kind: &str,
    object: &Map<String, Value>,
) -> Result<(Run, Entry), Refusal> {
    if let Some(at) = run.closed_at() {
        return Err(refuse(
            index,
            "type",
            format!(
                "the sitting was closed by event {at}; only payments may follow a close (session-format)"
            ),
        ));
    }
    let (target, replacement, reason) = if kind == "void" {
        let v: Void = fields::read(object).map_err(|e| refuse(index, e.field, e.message))?;
        (v.event, None, v.reason)
    } else {
        let c: Correction = fields::read(object).map_err(|e| refuse(index, e.field, e.message))?;
        (c.event, Some(c.replacement), c.reason)
    };
    if let Some(r) = &reason
        && r.chars().count() > REASON_MAX
    {
        return Err(refuse(
            index,
            "reason",
            format!("keep the reason under {REASON_MAX} characters"),
        ));
    }
    if target >= index {
        return Err(refuse(
            index,
            "event",
            format!("{target} is not an earlier event (this is event {index})"),
        ));
    }
    let slot = effective
        .iter()
        .position(|(i, _)| *i == target)
        .ok_or_else(|| {
            refuse(
                index,
                "event",
                format!("event {target} was already undone or cannot be corrected"),
            )
        })?;
    let (_, current_kind) = event_object(&effective[slot].1, target)?;
    let current_kind = current_kind.to_string();
    let mut changed = effective.clone();
    match &replacement {
        None => {
            changed.remove(slot);
        }
        Some(new) => {
            let new_kind = new.get("type").and_then(Value::as_str).unwrap_or_default();
            if new_kind != current_kind {
                return Err(refuse(
                    index,
                    "replacement.type",
                    format!("event {target} is a {current_kind}; its replacement must be one too"),
                ));
            }
            changed[slot].1 = Value::Object(new.clone());
        }
    }
    let (mut corrected, _) = Run::start(doc, game)?;
    let mut replacement_entry = None;
    let mut last_scores = None;
    for (i, event) in &changed {
        let (object, kind) = event_object(event, *i)?;
        match corrected.step(*i, kind, object) {
            Ok(entry) => {
                last_scores = entry.scores_after.clone();
                if *i == target {
                    replacement_entry = Some(entry);
                }
            }
            Err(r) if *i == target => {
                return Err(refuse(index, format!("replacement.{}", r.field), r.message));
            }
            Err(r) => {
                return Err(refuse(
                    index,
                    "event",
                    format!(
                        "with this change event {i} would be refused: {}: {}",
                        r.field, r.message
                    ),
                ));
            }
        }
    }
    let mut postings = Postings::new();
    let mut accounts: Vec<&String> = corrected
        .balances
        .as_map()
        .keys()
        .chain(run.balances.as_map().keys())
        .collect();
    accounts.sort();
    accounts.dedup();
    let mut change = Vec::new();
    for account in accounts {
        let delta = corrected.balances.get(account) - run.balances.get(account);
        if !delta.is_zero() {
            change.push(format!(
                "{account} {}{}",
                if delta.cents() > 0 { "+" } else { "" },
                delta
            ));
        }
        postings.credit(account, delta);
    }
    let label = label(doc, target, &current_kind);
    let reason = reason
        .map(|r| format!(" ({})", r.trim()))
        .unwrap_or_default();
    let change = if change.is_empty() {
        "no money changes".to_string()
    } else {
        format!("net change {}", change.join(", "))
    };
    let explanation = match replacement_entry {
        Some(entry) => format!(
            "{label} corrected{reason}: now {}; {change}",
            entry.explanation
        ),
        None => format!("{label} undone{reason}; {change}"),
    };
    *effective = changed;
    let scores_after = last_scores.or_else(|| corrected.engine.scores());
    Ok((
        corrected,
        Entry {
            postings: postings.into_vec(),
            scores_after,
            explanation,
        },
    ))
}

/// "Hand 3" for the third `hand` event, "Event 5 (payment)" otherwise.
fn label(doc: &SessionDoc, target: usize, kind: &str) -> String {
    if kind == "hand" {
        let number = doc.events[..=target]
            .iter()
            .filter(|e| e.get("type").and_then(Value::as_str) == Some("hand"))
            .count();
        format!("Hand {number}")
    } else {
        format!("Event {target} ({kind})")
    }
}

/// What the corrections of a (valid) session did to its events, for the score sheet.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Amendments {
    /// For each corrected or undone event (0-based index): the indices of the `correction`
    /// and `void` events that changed it, in order.
    pub changed_by: std::collections::BTreeMap<usize, Vec<usize>>,
    /// The indices of undone events.
    pub voided: std::collections::BTreeSet<usize>,
    /// The current version of each corrected event.
    pub current: std::collections::BTreeMap<usize, Value>,
}

impl Amendments {
    /// The event as it stands now: its latest replacement, or itself.
    pub fn current_version<'a>(&'a self, doc: &'a SessionDoc, index: usize) -> Option<&'a Value> {
        if self.voided.contains(&index) {
            return None;
        }
        self.current.get(&index).or_else(|| doc.events.get(index))
    }

    /// The last `hand` still standing (not undone), the one "undo last hand" undoes.
    pub fn last_standing_hand(&self, doc: &SessionDoc) -> Option<usize> {
        (0..doc.events.len()).rev().find(|&i| {
            !self.voided.contains(&i)
                && doc.events[i].get("type").and_then(Value::as_str) == Some("hand")
        })
    }
}

/// Reads which events the `void` and `correction` events of `doc` changed.
pub fn amendments(doc: &SessionDoc) -> Amendments {
    let mut a = Amendments::default();
    for (index, event) in doc.events.iter().enumerate() {
        let kind = event
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if !is_correction(kind) {
            continue;
        }
        let Some(target) = event
            .get("event")
            .and_then(Value::as_u64)
            .map(|t| t as usize)
        else {
            continue;
        };
        a.changed_by.entry(target).or_default().push(index);
        match event.get("replacement") {
            Some(replacement) => {
                a.current.insert(target, replacement.clone());
            }
            None => {
                a.voided.insert(target);
            }
        }
    }
    a
}
