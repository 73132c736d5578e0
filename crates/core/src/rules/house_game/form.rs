//! A house game's pages (rules §1.12): the new-session agreements and their presets, the
//! agreements in words, and the hand form (a number per player; one tap for a shot moon).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::agreements::{Agreements, Settlement, Winner, or_list};
use super::hand::{GameOver, WrittenHand};
use super::{Event, HouseGame};
use crate::rules::game::{Choice, HandFormSpec, Preset, STAKE_DEFAULT};
use crate::rules::hand_form::{self, text, ticked};
use crate::rules::{AgreementSpec, Field, RuleError, SpecKind};

/// The agreements the new-session form offers (rules §1.12; session-format `house_game`).
pub static AGREEMENTS: &[AgreementSpec] = &[
    AgreementSpec {
        name: "name",
        label: "Game's name",
        kind: SpecKind::Text,
        default: "",
        help: "What the table calls the game (\"Hearts\"), 1 to 40 characters; history and the leaderboard count its nights together under it (rules §1.12).",
    },
    AgreementSpec {
        name: "winner",
        label: "Who wins",
        kind: SpecKind::Choice(&[
            ("high", "the highest total"),
            ("low", "the lowest total (Hearts, Golf)"),
        ]),
        default: "high",
        help: "Which total wins a game (rules §1.12).",
    },
    AgreementSpec {
        name: "target",
        label: "Game ends at (points)",
        kind: SpecKind::Number,
        default: "",
        help: "A game ends after the hand in which any total reaches this: Gin 100, Hearts 100, Rummy 500, Cribbage 121. Empty: no target (rules §1.12).",
    },
    AgreementSpec {
        name: "hands",
        label: "Game ends after (hands)",
        kind: SpecKind::Number,
        default: "",
        help: "A game ends after this many hands (Golf 9); with a target too, whichever comes first. With neither, the table ends each game (rules §1.12).",
    },
    AgreementSpec {
        name: "hand_totals",
        label: "Each hand adds up to",
        kind: SpecKind::Numbers,
        default: "",
        help: "The points of every hand must sum to one of these, comma-separated (Hearts: 26, 78 when a player shoots the moon). Empty: any sum (rules §1.12).",
    },
    AgreementSpec {
        name: "settlement",
        label: "Settlement",
        kind: SpecKind::Choice(&[
            (
                "pairwise_difference",
                "every two players settle the difference",
            ),
            (
                "difference_to_winner",
                "the others pay the winner the difference",
            ),
            ("per_game", "the others pay the winner a stake per game"),
            ("by_place", "an agreed amount per place"),
        ]),
        default: "pairwise_difference",
        help: "How a finished game is paid; tied winners share, odd cents from the dealer's left (rules §1.12).",
    },
    AgreementSpec {
        name: "stake",
        label: "Stake (per point, or per game)",
        kind: SpecKind::Money,
        default: STAKE_DEFAULT,
        help: "Per point of difference, or per game when the others pay the winner a stake per game; 0 plays for points only (rules §1.12).",
    },
    AgreementSpec {
        name: "payouts",
        label: "Amount per place (by place)",
        kind: SpecKind::Amounts,
        default: "",
        help: "Only when paying by place: one amount per player, best place first, adding up to 0; four players might agree 3, 1, -1, -3 (rules §1.12).",
    },
];

/// The games a table picks in one tap, each only filled-in agreements it can change
/// (rules §1.12: Gin 100, Hearts 100 low with 26 or 78 a hand, Rummy 500, Cribbage 121,
/// Golf 9 hands low).
pub static PRESETS: &[Preset] = &[
    Preset {
        label: "Gin Rummy",
        players: "2 players",
        agreements: &[("name", "Gin Rummy"), ("target", "100")],
    },
    Preset {
        label: "Hearts",
        players: "3–6 players",
        agreements: &[
            ("name", "Hearts"),
            ("winner", "low"),
            ("target", "100"),
            ("hand_totals", "26, 78"),
        ],
    },
    Preset {
        label: "Rummy 500",
        players: "2–8 players",
        agreements: &[
            ("name", "Rummy 500"),
            ("target", "500"),
            ("settlement", "difference_to_winner"),
        ],
    },
    Preset {
        label: "Cribbage",
        players: "2–3 players",
        agreements: &[
            ("name", "Cribbage"),
            ("target", "121"),
            ("settlement", "per_game"),
        ],
    },
    Preset {
        label: "Golf",
        players: "2–8 players",
        agreements: &[
            ("name", "Golf"),
            ("winner", "low"),
            ("hands", "9"),
            ("settlement", "by_place"),
        ],
    },
    Preset {
        label: "Oh Hell",
        players: "3–7 players",
        agreements: &[("name", "Oh Hell")],
    },
];

/// The agreements in words, as `(label, value)`, for the top of the sheet.
pub fn summary(a: &Agreements, currency: &str) -> Vec<(String, String)> {
    let winner = match a.winner {
        Winner::High => "the highest total",
        Winner::Low => "the lowest total",
    };
    let mut ends = Vec::new();
    if let Some(t) = a.target {
        ends.push(format!("after the hand a total reaches {t}"));
    }
    if let Some(h) = a.hands {
        ends.push(format!("after {h} hands"));
    }
    ends.push("when the table says so".into());
    let stake = a.stake.shown(currency);
    let settlement = match a.settlement {
        Settlement::PairwiseDifference => {
            format!("every two players settle the difference, {stake} a point")
        }
        Settlement::DifferenceToWinner => {
            format!("the others pay the winner the difference, {stake} a point")
        }
        Settlement::PerGame => format!("the others pay the winner {stake} a game"),
        Settlement::ByPlace => {
            let places: Vec<String> = a.payouts.iter().map(|m| m.shown_signed(currency)).collect();
            format!("by place, best first: {}", places.join(", "))
        }
    };
    let mut summary = vec![
        ("Game".into(), a.name.clone()),
        ("Wins".into(), winner.into()),
        ("A game ends".into(), or_list(&ends)),
        ("Settlement".into(), settlement),
    ];
    if !a.hand_totals.is_empty() {
        let totals: Vec<String> = a.hand_totals.iter().map(i64::to_string).collect();
        summary.push(("Each hand adds up to".into(), or_list(&totals)));
    }
    summary
}

/// The submitted hand form (`templates/games/house_game/hand_form.html`): `dealer`, a
/// `points.<player>` number per player (empty is 0, but not every one), and `moon`, the
/// player who shot the moon, with `moon_points`, what every other player then scores; or
/// the `game_over` button.
#[derive(Debug, Default, Deserialize)]
pub struct Form {
    #[serde(default, deserialize_with = "text")]
    dealer: Option<String>,
    #[serde(default, deserialize_with = "ticked")]
    game_over: bool,
    #[serde(default, deserialize_with = "text")]
    moon: Option<String>,
    #[serde(flatten)]
    fields: BTreeMap<String, String>,
}

impl hand_form::HandForm for Form {
    type Written = Event;

    /// `game_over`, or the hand: each `points.<player>` field read as a whole number
    /// (empty: 0); with `moon` the shooter scores 0 and every other player `moon_points`
    /// (rules §1.12 Hearts).
    fn written(self) -> Result<Event, RuleError> {
        if self.game_over {
            return Ok(Event::GameOver(GameOver {}));
        }
        let moon_points = match &self.moon {
            Some(_) => Some(self.number("moon_points")?.ok_or_else(|| {
                RuleError::new("moon", "this table's hands have no moon to shoot")
            })?),
            None => None,
        };
        // A form sent with nothing typed is a slip of the thumb, not a hand nobody scored.
        let typed = |(k, v): (&String, &String)| k.starts_with("points.") && !v.trim().is_empty();
        if self.moon.is_none() && !self.fields.iter().any(typed) {
            return Err(RuleError::new(
                "points",
                "nothing is written for this hand: write each player's points (0 for a player who scored none)",
            )
            .rule(super::agreements::RULE));
        }
        let mut points = BTreeMap::new();
        for key in self.fields.keys() {
            let Some(player) = key.strip_prefix("points.") else {
                continue;
            };
            let scored = match (&self.moon, moon_points) {
                (Some(shooter), Some(others)) => (shooter != player).then_some(others),
                _ => self.number(key)?,
            };
            points.insert(player.to_string(), scored.unwrap_or(0));
        }
        if let Some(shooter) = &self.moon
            && !points.contains_key(shooter)
        {
            return Err(RuleError::new(
                "moon",
                format!("{shooter} has no row on this form"),
            ));
        }
        Ok(Event::Hand(WrittenHand {
            dealer: self.dealer,
            points,
        }))
    }
}

impl Form {
    /// The whole number typed in `key` (`None` when empty), refused naming the player's
    /// entry (`points.Al`).
    fn number(&self, key: &str) -> Result<Option<i64>, RuleError> {
        let typed = self.fields.get(key).map(|t| t.trim()).unwrap_or_default();
        if typed.is_empty() {
            return Ok(None);
        }
        // A true minus typed or pasted counts as a minus.
        let plain = typed.replace('−', "-");
        plain.parse::<i64>().map(Some).map_err(|_| {
            let field = match key.strip_prefix("points.") {
                Some(player) => Field::name("points").player(player),
                None => Field::name(key),
            };
            RuleError::new(
                field,
                format!("\"{typed}\" is not a whole number of points"),
            )
        })
    }
}

/// What the hand form offers (rules §1.12): `players` (each with his running total as the
/// label), `chips` (±1, ±5, ±10 and the smallest hand total), `totals` (the allowed hand
/// sums) and `moon` (what the others score when one shoots the moon, where the totals
/// are `t` and `t × (others)`).
pub fn offer(game: &HouseGame) -> HandFormSpec {
    let a = game.agreements();
    let players = game
        .players
        .iter()
        .zip(&game.totals)
        .map(|(p, t)| Choice::new(p, t.to_string()))
        .collect();
    // The game's own common value: its smallest hand total (Hearts' 26), one player's all.
    let mut chips: Vec<i64> = vec![-10, -5, -1, 1, 5, 10];
    chips.extend(a.hand_totals.iter().copied().filter(|t| *t > 10).min());
    let others = game.players.len() as i64 - 1;
    let moon: Vec<Choice> = a
        .hand_totals
        .iter()
        .filter(|t| **t > 0 && others > 1 && a.hand_totals.contains(&(**t * others)))
        .map(|t| Choice::new(t.to_string(), format!("{t} to every other player")))
        .take(1)
        .collect();
    HandFormSpec {
        min_bid: 0,
        lists: vec![
            ("players", players),
            (
                "chips",
                chips
                    .iter()
                    .map(|c| Choice::new(c.to_string(), signed(*c)))
                    .collect(),
            ),
            (
                "totals",
                a.hand_totals
                    .iter()
                    .map(|t| Choice::new(t.to_string(), t.to_string()))
                    .collect(),
            ),
            ("moon", moon),
        ],
        note: None,
    }
}

fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        crate::rules::sheet::minus(n)
    }
}
