//! A renamed or merged player is shown under the club's current name, also on the
//! session's pages: the page folds a copy of the document under display names. The
//! stored document, its ledger and the API keep the names as sat.
//!
//! Pure. `None` when nothing is renamed or renaming could change the session (two names
//! merging, or a name that is also a word in the events); the page then shows names as
//! recorded.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::format::{self, SessionDoc};
use crate::ledger::HOUSE;
use crate::session::Fold;

/// A session as the page shows it: the renamed copy folded, and the names that differ.
#[derive(Debug, Clone)]
pub struct Shown {
    /// The copy of the session document under the display names.
    pub doc: SessionDoc,
    /// The copy folded: the same rows and balances under display names.
    pub fold: Fold,
    /// Recorded name → display name, for this session's names that differ only.
    pub names: BTreeMap<String, String>,
}

impl Shown {
    /// The display name of recorded `name` (itself when not renamed).
    pub fn name<'a>(&'a self, name: &'a str) -> &'a str {
        self.names.get(name).map_or(name, String::as_str)
    }

    /// The recorded name behind display name `shown` (itself when not renamed).
    pub fn recorded<'a>(&'a self, shown: &'a str) -> &'a str {
        self.names
            .iter()
            .find(|(_, s)| s.as_str() == shown)
            .map_or(shown, |(r, _)| r.as_str())
    }
}

/// Event `value` with every string and key that is a renamed name renamed.
pub fn renamed_event(value: &Value, names: &BTreeMap<String, String>) -> Value {
    rename(value, names)
}

fn rename(value: &Value, names: &BTreeMap<String, String>) -> Value {
    match value {
        Value::String(s) => Value::String(names.get(s).unwrap_or(s).clone()),
        Value::Array(items) => Value::Array(items.iter().map(|v| rename(v, names)).collect()),
        Value::Object(map) => Value::Object(rename_map(map, names)),
        other => other.clone(),
    }
}

fn rename_map(map: &Map<String, Value>, names: &BTreeMap<String, String>) -> Map<String, Value> {
    map.iter()
        .map(|(k, v)| (names.get(k).unwrap_or(k).clone(), rename(v, names)))
        .collect()
}

/// `doc` under `club_names`; `None` if nothing is renamed, names merge, or balances change.
pub fn shown(
    doc: &SessionDoc,
    fold: &Fold,
    club_names: &BTreeMap<String, String>,
) -> Option<Shown> {
    let sitting: BTreeSet<&String> = doc
        .players
        .iter()
        .chain(fold.balances().as_map().keys())
        .filter(|n| !HOUSE.contains(&n.as_str()))
        .collect();
    let names: BTreeMap<String, String> = sitting
        .iter()
        .filter_map(|n| {
            let to = club_names.get(*n)?;
            (to != *n).then(|| ((*n).clone(), to.clone()))
        })
        .collect();
    if names.is_empty() {
        return None;
    }
    let after: BTreeSet<&str> = sitting
        .iter()
        .map(|n| names.get(*n).unwrap_or(n).as_str())
        .collect();
    if after.len() != sitting.len() || after.iter().any(|n| HOUSE.contains(n)) {
        return None;
    }
    let copy = SessionDoc {
        format: doc.format.clone(),
        game: doc.game.clone(),
        currency: doc.currency.clone(),
        agreements: rename_map(&doc.agreements, &names),
        players: doc
            .players
            .iter()
            .map(|p| names.get(p).unwrap_or(p).clone())
            .collect(),
        opening_scores: doc.opening_scores.as_ref().map(|v| rename(v, &names)),
        events: doc.events.iter().map(|e| rename(e, &names)).collect(),
    };
    let renamed = format::fold(&copy).ok()?;
    let same = renamed.rows().len() == fold.rows().len()
        && fold.balances().as_map().len() == renamed.balances().as_map().len()
        && fold
            .balances()
            .as_map()
            .iter()
            .all(|(who, m)| renamed.balances().get(names.get(who).unwrap_or(who)) == *m);
    same.then_some(Shown {
        doc: copy,
        fold: renamed,
        names,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use serde_json::json;

    fn doc(players: &[&str], events: Value) -> SessionDoc {
        serde_json::from_value(json!({
            "format": "scorekeeper/session@1",
            "game": "auction_pinochle",
            "agreements": { "stake": "0.05", "kitty": "pot" },
            "players": players,
            "events": events
        }))
        .unwrap()
    }

    fn names(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn a_renamed_player_is_shown_under_the_new_name_with_the_same_money() {
        let d = doc(
            &["Ann", "Bob", "Cy"],
            json!([{ "type": "hand", "dealer": "Cy", "bidder": "Ann", "bid": 350, "trump": "hearts", "outcome": "made" }]),
        );
        let f = format::fold(&d).unwrap();
        let s = shown(&d, &f, &names(&[("Ann", "Annie"), ("Zed", "Zeke")])).unwrap();
        assert_eq!(s.doc.players, ["Annie", "Bob", "Cy"]);
        assert_eq!(s.names, names(&[("Ann", "Annie")]));
        assert_eq!(s.fold.balances().get("Annie"), f.balances().get("Ann"));
        assert!(
            s.fold
                .rows()
                .iter()
                .any(|r| r.explanation.contains("Annie"))
        );
        assert_eq!((s.name("Ann"), s.recorded("Annie")), ("Annie", "Ann"));
        // Nothing renamed, two names shown as one, a name taken by another player: as recorded.
        assert!(shown(&d, &f, &names(&[("Zed", "Zeke")])).is_none());
        assert!(shown(&d, &f, &names(&[("Ann", "Bob")])).is_none());
        assert!(shown(&d, &f, &names(&[("Ann", "Cy"), ("Cy", "Ann")])).is_some());
    }
}
