//! `meld_detail`, an optional field of a pinochle `hand`: the melds behind a typed meld,
//! `{"Margaret": ["flush", "aces_100", "pinochle"]}` (ids of [`super::Kind::id`], a meld
//! shown twice listed twice). The typed meld stays what the rules score; the named melds
//! must add up to it by the game's table, else the hand is refused naming `meld_detail`.
//!
//! Which meld field a player's melds belong to is the game's ([`MeldFields`]): the
//! bidder's `meld`, a side's `NS.meld`, each player's `melds.<player>`, or none.

use serde_json::{Map, Value};

use super::{Counted, Kind, MeldFields, MeldRules, count};
use crate::rules::{Field, Outcome, RuleError, Suit};

/// The event without its `meld_detail`, and the detail, when a `hand` carries one.
pub fn split(kind: &str, event: &Map<String, Value>) -> Option<(Map<String, Value>, Value)> {
    if kind != "hand" {
        return None;
    }
    let detail = event.get("meld_detail")?.clone();
    let mut rest = event.clone();
    rest.remove("meld_detail");
    Some((rest, detail))
}

/// One meld field of a hand: its place in the event, its players and the meld typed.
struct MeldField {
    place: String,
    players: Vec<String>,
    typed: Option<i64>,
}

/// The meld fields of the hand `event`, seated `seated`, per [`MeldRules::fields`].
fn fields_of(rules: &MeldRules, event: &Map<String, Value>, seated: &[String]) -> Vec<MeldField> {
    let number = |v: Option<&Value>| v.and_then(Value::as_i64);
    match rules.fields {
        MeldFields::Bidder => vec![MeldField {
            place: "meld".into(),
            players: event
                .get("bidder")
                .and_then(Value::as_str)
                .map(|b| vec![b.to_string()])
                .unwrap_or_default(),
            typed: number(event.get("meld")),
        }],
        MeldFields::Players => seated
            .iter()
            .map(|p| MeldField {
                place: format!("melds.{p}"),
                players: vec![p.clone()],
                typed: number(event.get("melds").and_then(|m| m.get(p))),
            })
            .collect(),
        MeldFields::Unrecorded => Vec::new(),
        MeldFields::Sides => ["NS", "EW"]
            .iter()
            .enumerate()
            .map(|(i, side)| MeldField {
                place: format!("{side}.meld"),
                players: seated.iter().skip(i).step_by(2).cloned().collect(),
                typed: number(event.get(*side).and_then(|s| s.get("meld"))),
            })
            .collect(),
    }
}

fn refuse(field: impl Into<Field>, message: impl Into<String>, rules: &MeldRules) -> RuleError {
    RuleError::new(field, message).rule(rules.rule)
}

/// One player's named melds, read and scored: `melds` must be a list of meld ids.
fn read_player(
    rules: &MeldRules,
    player: &str,
    melds: &Value,
    trump: Option<Suit>,
) -> Result<Counted, RuleError> {
    let place = Field::name("meld_detail").player(player);
    let list = melds.as_array().ok_or_else(|| {
        refuse(
            &place,
            "write the melds as a list of names, like [\"flush\", \"pinochle\"]",
            rules,
        )
    })?;
    let mut tapped = Vec::new();
    for m in list {
        let id = m.as_str().unwrap_or_default();
        let kind = Kind::from_id(id).ok_or_else(|| {
            let known: Vec<&str> = Kind::ALL.iter().map(|k| k.id()).collect();
            refuse(
                &place,
                format!("\"{id}\" is not a meld; the melds are {}", known.join(", ")),
                rules,
            )
        })?;
        tapped.push((kind, 1));
    }
    count(rules, &tapped, trump).map_err(|e| RuleError { field: place, ..e })
}

/// Checks `detail` against the hand's meld fields and adds the named melds to the words.
/// Errors name `meld_detail(.<player>)`: no meld field, an unknown or impossible meld, or a
/// sum other than the meld typed.
pub fn annotate(
    rules: Option<&MeldRules>,
    event: &Map<String, Value>,
    detail: &Value,
    seated: &[String],
    mut outcome: Outcome,
) -> Result<Outcome, RuleError> {
    let Some(rules) = rules else {
        return Err(
            RuleError::new("meld_detail", "this game has no meld to name").rule("session-format"),
        );
    };
    let named = detail.as_object().ok_or_else(|| {
        refuse(
            "meld_detail",
            "write the melds per player, like {\"Ann\": [\"flush\"]}",
            rules,
        )
    })?;
    let fields = fields_of(rules, event, seated);
    let trump = event
        .get("trump")
        .and_then(|t| serde_json::from_value::<Suit>(t.clone()).ok());
    let mut words = Vec::new();
    for (player, _) in named {
        if !fields.iter().any(|f| f.players.contains(player)) {
            return Err(refuse(
                Field::name("meld_detail").player(player),
                format!("{player} has no meld field in this hand"),
                rules,
            ));
        }
    }
    for f in &fields {
        let mut sum = 0i64;
        let mut any = false;
        for p in &f.players {
            let Some(melds) = named.get(p) else { continue };
            let counted = read_player(rules, p, melds, trump)?;
            sum += counted.total;
            any = true;
            words.push(format!("{p} {}", counted.words()));
        }
        let typed = f.typed.unwrap_or(0);
        if any && sum != typed {
            return Err(refuse(
                "meld_detail",
                format!(
                    "the melds named for {} add up to {sum}, not the {typed} typed as {}",
                    f.players.join(" and "),
                    f.place
                ),
                rules,
            ));
        }
    }
    if !words.is_empty() {
        let sep = if outcome.explanation.is_empty() {
            ""
        } else {
            " "
        };
        outcome.explanation = format!(
            "{}{sep}Meld named: {}.",
            outcome.explanation,
            words.join("; ")
        );
    }
    Ok(outcome)
}

/// The hand form's `meld_detail.<player>.<id>` counts as `{"<player>": [id, …]}`.
pub fn from_form<'a>(
    hand: &Value,
    values: impl Iterator<Item = (&'a String, &'a String)>,
) -> Option<Value> {
    if hand.get("all_passed") == Some(&Value::Bool(true)) {
        return None;
    }
    let mut named: std::collections::BTreeMap<&str, Vec<Value>> = Default::default();
    // In name order, so the same taps always write the same document.
    let mut values: Vec<(&String, &String)> = values.collect();
    values.sort();
    for (key, count) in values {
        let Some((player, id)) = key
            .strip_prefix("meld_detail.")
            .and_then(|k| k.rsplit_once('.'))
        else {
            continue;
        };
        // A count beyond a deck's is refused by the count.
        let n = count.trim().parse::<usize>().unwrap_or(0).min(13);
        named
            .entry(player)
            .or_default()
            .extend(std::iter::repeat_n(Value::from(id), n));
    }
    (!named.is_empty()).then(|| {
        Value::Object(
            named
                .into_iter()
                .map(|(p, ids)| (p.to_string(), Value::Array(ids)))
                .collect(),
        )
    })
}
