//! Two-handed Pinochle's pages: new-session agreements, the agreements in words, and the
//! hand form (rules §1.9): dealer, dix tap, one meld per player, one player's trick points
//! (the other's are the rest of 250); a match also asks whether someone declared out.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::Event;
use super::agreements::{Agreements, Mode};
use super::hand::{Players, TURN_UP_DIX, WrittenDeal, WrittenDeclare};
use crate::rules::game::{Choice, HandFormSpec, STAKE_DEFAULT};
use crate::rules::hand_form::{self, text, ticked};
use crate::rules::partnership::ALL_TRICK_POINTS;
use crate::rules::{AgreementSpec, Field, RuleError, SpecKind};

/// The agreements the new-session form offers, defaults filled in (rules §1.9, §3 item 29).
pub static AGREEMENTS: &[AgreementSpec] = &[
    AgreementSpec {
        name: "stake",
        label: "Stake per game won",
        kind: SpecKind::Money,
        default: STAKE_DEFAULT,
        help: "The loser of each game pays the winner this; a drawn single deal pays nothing, 0 plays for points only (session-format).",
    },
    AgreementSpec {
        name: "mode",
        label: "Game",
        kind: SpecKind::Choice(&[
            ("match", "match: first to 1,000 over several deals"),
            ("single_deal", "single deal: every deal is a game"),
        ]),
        default: "match",
        help: "S004: either every deal is a game (the higher total wins), or a match to 1,000 that either player may end by declaring out (rules §1.9).",
    },
    AgreementSpec {
        name: "target",
        label: "Match to (points)",
        kind: SpecKind::Number,
        default: "1000",
        help: "One player at or over it and the other under it after a deal wins the match game (rules §1.9).",
    },
    AgreementSpec {
        name: "target_step",
        label: "When both pass it, the game goes on by",
        kind: SpecKind::Number,
        default: "250",
        help: "Both at or over 1,000 after one deal: the game goes on to 1,250, then 1,500, however far one is ahead (rules §1.9).",
    },
    AgreementSpec {
        name: "round_partial_count_on_declare_out",
        label: "Round a declare-out's trick count",
        kind: SpecKind::Bool,
        default: "yes",
        help: "S004 does not say whether 7 or more counts 10 in a partial count; yes by default (rules §3 item 29).",
    },
];

/// The agreements in words, as `(label, value)`, for the top of the sheet.
pub fn summary(a: &Agreements, currency: &str) -> Vec<(String, String)> {
    let stake = crate::rules::game::stake_words(
        a.stake,
        currency,
        "points only",
        "a game, paid by the loser to the winner",
    );
    let mut summary = vec![("Stake".to_string(), stake)];
    match a.mode {
        Mode::SingleDeal => summary.push((
            "Game".into(),
            "every deal is a game: the higher total wins, equal totals are a draw".into(),
        )),
        Mode::Match => {
            summary.push((
                "Game".into(),
                format!(
                    "a match to {}; when both reach it after one deal, the game goes on by {}",
                    super::pts(a.target),
                    super::pts(a.target_step)
                ),
            ));
            summary.push((
                "Declaring out".into(),
                if a.round_partial_count {
                    "the count so far is rounded: 7 or more counts 10".into()
                } else {
                    "the count so far is taken as it is, not rounded".into()
                },
            ));
        }
    }
    summary.push((
        "Tricks".into(),
        "counted in tens: 7 or more counts 10 (87 → 90, 125 and 125 → 120 each)".into(),
    ));
    summary
}

/// What the hand form offers: both players and, in a match, who may declare out.
pub fn offer(players: &Players, mode: Mode, note: Option<String>) -> HandFormSpec {
    let mut lists = vec![(
        "players",
        players
            .iter()
            .map(|p| Choice {
                max: ALL_TRICK_POINTS,
                ..Choice::new(p.as_str(), p.as_str())
            })
            .collect(),
    )];
    if mode == Mode::Match {
        lists.push((
            "claimants",
            players
                .iter()
                .map(|p| Choice::new(p.as_str(), format!("{p} declared out")))
                .collect(),
        ));
    }
    HandFormSpec {
        min_bid: 0,
        lists,
        note,
    }
}

/// The submitted hand form (`templates/games/two_handed_pinochle/hand_form.html`).
#[derive(Debug, Default, Deserialize)]
pub struct Form {
    #[serde(default, deserialize_with = "text")]
    dealer: Option<String>,
    #[serde(default, deserialize_with = "ticked")]
    turn_up_dix: bool,
    #[serde(default, deserialize_with = "text")]
    claimant: Option<String>,
    /// The rest of the form: each player's meld and trick points, by field name.
    #[serde(flatten)]
    per_player: BTreeMap<String, String>,
}

impl Form {
    /// The players the form names in `melds.<name>` and `tricks.<name>`, by name.
    fn named(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .per_player
            .keys()
            .filter_map(|k| {
                k.strip_prefix("melds.")
                    .or_else(|| k.strip_prefix("tricks."))
            })
            .map(String::from)
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// A `declare_out` by `claimant` (rules §1.9, S004). Errors name `tricks.<name>`.
    fn declare(
        &self,
        claimant: &str,
        names: &[String],
        dealer: String,
        mut melds: BTreeMap<String, i64>,
    ) -> Result<Event, RuleError> {
        let field = Field::name("tricks").player(claimant);
        let so_far = self.number(&field)?.ok_or_else(|| {
            RuleError::new(
                &field,
                format!("enter {claimant}'s trick points so far (0 if he has taken none)"),
            )
        })?;
        for other in names.iter().filter(|n| *n != claimant) {
            if self.number(&Field::name("tricks").player(other))?.is_some() {
                return Err(RuleError::new(
                    Field::name("tricks").player(other),
                    format!("a declare-out counts only {claimant}'s tricks: leave {other}'s empty"),
                ));
            }
        }
        if self.turn_up_dix {
            melds.entry(dealer).or_insert(TURN_UP_DIX);
        }
        Ok(Event::DeclareOut(WrittenDeclare {
            claimant: claimant.to_string(),
            melds,
            tricks_so_far: so_far,
        }))
    }

    /// Both players' trick points, one may be the rest of 250. Errors name `tricks.<name>`.
    fn tricks(&self, names: &[String]) -> Result<BTreeMap<String, i64>, RuleError> {
        let mut given = Vec::new();
        for name in names {
            if let Some(t) = self.number(&Field::name("tricks").player(name))? {
                given.push((name.clone(), t));
            }
        }
        let mut tricks = BTreeMap::new();
        match (given.as_slice(), names) {
            ([], _) => {
                return Err(RuleError::new(
                    names.first().map_or_else(
                        || Field::name("tricks"),
                        |n| Field::name("tricks").player(n),
                    ),
                    "enter one player's trick points; the other's are 250 minus them",
                ));
            }
            ([(name, t)], [a, b]) => {
                let other = if name == a { b } else { a };
                let rest = ALL_TRICK_POINTS.checked_sub(*t).ok_or_else(|| {
                    RuleError::new(
                        Field::name("tricks").player(name),
                        format!("{t} is not a count of trick points: they run from 0 to 250"),
                    )
                })?;
                tricks.insert(name.clone(), *t);
                tricks.insert(other.clone(), rest);
            }
            _ => tricks.extend(given),
        }
        Ok(tricks)
    }

    /// A per-player number (`melds.Ann`): `None` when empty or absent.
    fn number(&self, field: &Field) -> Result<Option<i64>, RuleError> {
        self.per_player
            .get(&field.to_string())
            .map(|t| t.trim())
            .filter(|t| !t.is_empty())
            .map(|t| {
                t.parse::<i64>()
                    .map_err(|_| RuleError::new(field, format!("\"{t}\" is not a whole number")))
            })
            .transpose()
    }
}

impl hand_form::HandForm for Form {
    type Written = Event;

    /// Without a claimant a `hand`; with one (match) a `declare_out`, the turned-up dix in
    /// the dealer's melds (scored at once, S004) and the claimant's tricks as
    /// `tricks_so_far`.
    fn written(self) -> Result<Event, RuleError> {
        let names = self.named();
        let dealer = self
            .dealer
            .clone()
            .ok_or_else(|| RuleError::new("dealer", "who dealt?"))?;
        let declaring = self.claimant.is_some();
        let mut melds = BTreeMap::new();
        for name in &names {
            let mut points = self
                .number(&Field::name("melds").player(name))?
                .unwrap_or(0);
            if declaring && self.turn_up_dix && *name == dealer {
                points = points.saturating_add(TURN_UP_DIX);
            }
            melds.insert(name.clone(), points);
        }
        if let Some(claimant) = &self.claimant {
            return self.declare(claimant, &names, dealer, melds);
        }
        let tricks = self.tricks(&names)?;
        Ok(Event::Hand(WrittenDeal {
            dealer,
            turn_up_dix: self.turn_up_dix,
            melds,
            tricks,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    crate::rules::hand_form::form_tests!(super::super::TwoHanded, Form);

    /// The form body a browser sends for these fields (the test values need no escaping).
    fn form(pairs: &[(&str, &str)]) -> Vec<u8> {
        pairs
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&")
            .into_bytes()
    }

    #[test]
    fn one_players_tricks_give_the_others_from_250() {
        // Ann counted 97: Bob has 250 − 97 = 153. An empty meld is 0.
        let e = hand_event(&form(&[
            ("dealer", "Bob"),
            ("turn_up_dix", "true"),
            ("melds.Ann", "60"),
            ("melds.Bob", ""),
            ("tricks.Ann", "97"),
            ("tricks.Bob", ""),
        ]))
        .unwrap();
        assert_eq!(
            e,
            json!({"type": "hand", "dealer": "Bob", "turn_up_dix": true,
                "melds": {"Ann": 60, "Bob": 0}, "tricks": {"Ann": 97, "Bob": 153}})
        );
    }

    #[test]
    fn both_tricks_are_sent_as_entered_for_the_rules_to_check() {
        let e = hand_event(&form(&[
            ("dealer", "Ann"),
            ("tricks.Ann", "100"),
            ("tricks.Bob", "140"),
        ]))
        .unwrap();
        assert_eq!(e["tricks"], json!({"Ann": 100, "Bob": 140}));
        assert_eq!(e["turn_up_dix"], json!(false));
    }

    #[test]
    fn a_claimant_makes_a_declare_out_with_the_dealers_dix_in_his_melds() {
        // Bob dealt and turned up the dix (10, scored at once); Ann melded 40 and declares
        // out with 47 trick points so far.
        let e = hand_event(&form(&[
            ("dealer", "Bob"),
            ("turn_up_dix", "true"),
            ("claimant", "Ann"),
            ("melds.Ann", "40"),
            ("melds.Bob", ""),
            ("tricks.Ann", "47"),
            ("tricks.Bob", ""),
        ]))
        .unwrap();
        assert_eq!(
            e,
            json!({"type": "declare_out", "claimant": "Ann",
                "melds": {"Ann": 40, "Bob": 10}, "tricks_so_far": 47})
        );
    }

    #[test]
    fn refusals_name_the_field() {
        let field = |pairs: &[(&str, &str)]| hand_event(&form(pairs)).unwrap_err().field;
        assert_eq!(field(&[("tricks.Ann", "100")]), "dealer");
        assert_eq!(
            field(&[("dealer", "Ann"), ("tricks.Ann", ""), ("tricks.Bob", "")]),
            "tricks.Ann"
        );
        assert_eq!(
            field(&[("dealer", "Ann"), ("tricks.Ann", "ten"), ("tricks.Bob", "")]),
            "tricks.Ann"
        );
        assert_eq!(
            field(&[("dealer", "Ann"), ("melds.Bob", "x"), ("tricks.Ann", "100")]),
            "melds.Bob"
        );
        assert_eq!(
            field(&[
                ("dealer", "Ann"),
                ("claimant", "Bob"),
                ("tricks.Bob", ""),
                ("tricks.Ann", "")
            ]),
            "tricks.Bob"
        );
        assert_eq!(
            field(&[
                ("dealer", "Ann"),
                ("claimant", "Bob"),
                ("tricks.Bob", "40"),
                ("tricks.Ann", "30")
            ]),
            "tricks.Ann"
        );
    }

    #[test]
    fn a_match_offers_declaring_out_and_single_deals_do_not() {
        let players = ["Ann".to_string(), "Bob".to_string()];
        let m = offer(&players, Mode::Match, None);
        assert_eq!(m.list("players").len(), 2);
        assert_eq!(m.list("players")[0].max, 250);
        assert_eq!(m.list("claimants")[1].label, "Bob declared out");
        assert!(
            offer(&players, Mode::SingleDeal, None)
                .list("claimants")
                .is_empty()
        );
    }
}
