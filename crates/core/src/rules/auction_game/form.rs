//! The Auction game's pages: new-session agreements, the agreements in words, and the hand
//! form (rules §1.10): one block per round (item, bids, overtime, withdrawals), or the
//! `final` count. Field names follow the document (`rounds.0.bids.Ann`, `final.Ann.spent`).

use std::collections::BTreeMap;

use serde::Deserialize;

use super::agreements::Agreements;
use super::hand::{CARDS, Item, WrittenFinal, WrittenGame, WrittenRound};
use crate::rules::game::{Choice, HandFormSpec, STAKE_DEFAULT};
use crate::rules::hand_form::{self, text};
use crate::rules::{AgreementSpec, Field, RuleError, SpecKind};

/// The rounds the form offers: the 9 cards of the item deck (rules §1.10).
pub const ROUNDS: usize = 9;

/// The overtime steps the form offers per round (a document may list any number).
pub const STEPS: usize = 3;

/// The agreements the new-session form offers (rules §1.10: no money stakes in the source).
pub static AGREEMENTS: &[AgreementSpec] = &[AgreementSpec {
    name: "stake",
    label: "Stake per game lost",
    kind: SpecKind::Money,
    default: STAKE_DEFAULT,
    help: "Each loser of a game pays this to the winner (shared among tied winners; nobody pays when all draw); 0 plays for the items only (rules §1.10, session-format).",
}];

/// The agreements in words, as `(label, value)`, for the top of the sheet.
pub fn summary(a: &Agreements, currency: &str) -> Vec<(String, String)> {
    let stake = crate::rules::game::stake_words(
        a.stake,
        currency,
        "for the items only",
        "a game from each loser, shared among tied winners",
    );
    vec![
        ("Stake".into(), stake),
        (
            "Items".into(),
            format!(
                "{} (two of each) and a Joker: the next card is bid on blind",
                super::item_values()
            ),
        ),
        (
            "Winner".into(),
            "the highest item value; tied, the one who spent the least; tied on both, a draw (rules §3 item 31)".into(),
        ),
        (
            "Nobody bids".into(),
            "with 3–4 players bidding is optional; an item nobody bids on is discarded (rules §3 item 31)".into(),
        ),
    ]
}

/// What the hand form offers: the players, the items (and the Joker), the money cards.
pub fn offer(players: &[String]) -> HandFormSpec {
    HandFormSpec {
        min_bid: *CARDS.start(),
        lists: vec![
            (
                "players",
                players
                    .iter()
                    .map(|p| Choice::new(p.as_str(), p.as_str()))
                    .collect(),
            ),
            (
                "items",
                [Item::A, Item::K, Item::Q, Item::J, Item::Joker]
                    .iter()
                    .map(|i| {
                        let label = match i {
                            Item::Joker => "Joker (no item)".to_string(),
                            other => {
                                format!("{} {} ({})", other.letter(), other.name(), other.value())
                            }
                        };
                        Choice {
                            max: 2,
                            ..Choice::new(i.letter(), label)
                        }
                    })
                    .collect(),
            ),
            (
                "cards",
                CARDS
                    .map(|c| Choice::new(c.to_string(), c.to_string()))
                    .collect(),
            ),
            (
                "rounds",
                (0..ROUNDS)
                    .map(|i| Choice::new(i.to_string(), format!("Round {}", i + 1)))
                    .collect(),
            ),
            (
                "steps",
                (0..STEPS)
                    .map(|k| Choice::new(k.to_string(), format!("Overtime {}", k + 1)))
                    .collect(),
            ),
        ],
        note: if players.len() > 2 {
            Some("With 3 or 4 players bidding is optional: leave a player's bid empty.".into())
        } else {
            None
        },
    }
}

/// The submitted hand form (`templates/games/auction_game/hand_form.html`): `how`, `seat.N`.
#[derive(Debug, Default, Deserialize)]
pub struct Form {
    #[serde(default, deserialize_with = "text")]
    how: Option<String>,
    #[serde(flatten)]
    fields: BTreeMap<String, String>,
}

impl Form {
    fn get(&self, field: &str) -> Option<&str> {
        self.fields
            .get(field)
            .map(|v| v.trim())
            .filter(|v| !v.is_empty())
    }

    /// A number typed in `field`, which the error names.
    fn number(&self, field: &Field) -> Result<Option<i64>, RuleError> {
        self.get(&field.to_string())
            .map(|t| {
                t.parse::<i64>()
                    .map_err(|_| RuleError::new(field, format!("\"{t}\" is not a whole number")))
            })
            .transpose()
    }

    /// The players, in seat order from `seat.<n>`, else every name the fields carry.
    fn players(&self) -> Vec<String> {
        let mut seats: Vec<(usize, String)> = self
            .fields
            .iter()
            .filter_map(|(k, v)| {
                Some((k.strip_prefix("seat.")?.parse().ok()?, v.trim().to_string()))
            })
            .filter(|(_, v)| !v.is_empty())
            .collect();
        seats.sort();
        if !seats.is_empty() {
            return seats.into_iter().map(|(_, p)| p).collect();
        }
        let mut names: Vec<String> = self
            .fields
            .keys()
            .filter_map(|k| {
                let rest = k.strip_prefix("final.").or_else(|| {
                    k.strip_prefix("rounds.")
                        .and_then(|r| r.split_once(".bids.").map(|x| x.1))
                })?;
                Some(rest.split('.').next().unwrap_or(rest).to_string())
            })
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// The cards entered in round `i` under `prefix` (`bids`, `overtime.0`), by player.
    fn cards(
        &self,
        i: usize,
        prefix: &str,
        players: &[String],
    ) -> Result<BTreeMap<String, i64>, RuleError> {
        let mut cards = BTreeMap::new();
        for p in players {
            if let Some(card) =
                self.number(&Field::name("rounds").place(i).then(prefix).player(p))?
            {
                cards.insert(p.clone(), card);
            }
        }
        Ok(cards)
    }

    /// Whether anything is entered in round `i` besides its item.
    fn round_has_entries(&self, i: usize) -> bool {
        let prefix = format!("rounds.{i}.");
        self.fields
            .iter()
            .any(|(k, v)| k.starts_with(&prefix) && !k.ends_with(".item") && !v.trim().is_empty())
    }

    fn round(&self, i: usize, item: Item, players: &[String]) -> Result<WrittenRound, RuleError> {
        if item == Item::Joker {
            if self.round_has_entries(i) {
                return Err(RuleError::new(
                    format!("rounds.{i}.item"),
                    "the Joker is not an item: leave its bids empty; the next card is bid on blind",
                )
                .rule("rules §1.10"));
            }
            return Ok(WrittenRound {
                item,
                bids: None,
                overtime: None,
                withdrawn: None,
            });
        }
        let bids = self.cards(i, "bids", players)?;
        let mut overtime = Vec::new();
        let mut gap = None;
        for k in 0..STEPS {
            let step = self.cards(i, &format!("overtime.{k}"), players)?;
            match (step.is_empty(), gap) {
                (true, _) => gap = gap.or(Some(k)),
                (false, Some(empty)) => {
                    return Err(RuleError::new(
                        format!("rounds.{i}.overtime.{k}"),
                        format!("overtime {} is empty: enter the steps in order", empty + 1),
                    ));
                }
                (false, None) => overtime.push(step),
            }
        }
        let withdrawn = players
            .iter()
            .filter(|p| {
                self.get(&format!("rounds.{i}.withdrawn.{p}"))
                    .is_some_and(|v| v != "false" && v != "0")
            })
            .cloned()
            .collect();
        Ok(WrittenRound {
            item,
            bids: Some(bids),
            overtime: Some(overtime),
            withdrawn: Some(withdrawn),
        })
    }

    fn rounds(&self, players: &[String]) -> Result<Vec<WrittenRound>, RuleError> {
        let mut rounds = Vec::new();
        let mut empty: Option<usize> = None;
        for i in 0..ROUNDS {
            let field = format!("rounds.{i}.item");
            let Some(letter) = self.get(&field) else {
                if self.round_has_entries(i) {
                    return Err(RuleError::new(field, "which item was turned?"));
                }
                empty = empty.or(Some(i));
                continue;
            };
            if let Some(e) = empty {
                return Err(RuleError::new(
                    field,
                    format!(
                        "round {} is empty: enter the rounds in the order the items were turned",
                        e + 1
                    ),
                ));
            }
            let item = parse_item(letter).ok_or_else(|| {
                RuleError::new(
                    &field,
                    format!("\"{letter}\" is not J, Q, K, A or the Joker"),
                )
            })?;
            rounds.push(self.round(i, item, players)?);
        }
        if rounds.is_empty() {
            return Err(RuleError::new(
                "rounds.0.item",
                "which item was turned first?",
            ));
        }
        Ok(rounds)
    }

    fn summary(&self, players: &[String]) -> Result<BTreeMap<String, WrittenFinal>, RuleError> {
        let mut summary = BTreeMap::new();
        for p in players {
            let mut items = Vec::new();
            for item in Item::ITEMS {
                let field = Field::name("final")
                    .player(p)
                    .then("items")
                    .then(item.letter());
                let count = self.number(&field)?.unwrap_or(0);
                let count = usize::try_from(count).map_err(|_| {
                    RuleError::new(&field, format!("{count} is not a count of items"))
                })?;
                if count > 2 {
                    return Err(RuleError::new(
                        field,
                        format!("the item deck holds two {}s", item.name()),
                    )
                    .rule("rules §1.10"));
                }
                items.extend(std::iter::repeat_n(item, count));
            }
            let spent = self
                .number(&Field::name("final").player(p).then("spent"))?
                .unwrap_or(0);
            summary.insert(p.clone(), WrittenFinal { items, spent });
        }
        Ok(summary)
    }
}

fn parse_item(letter: &str) -> Option<Item> {
    [Item::J, Item::Q, Item::K, Item::A, Item::Joker]
        .into_iter()
        .find(|i| i.letter().eq_ignore_ascii_case(letter))
}

impl hand_form::HandForm for Form {
    type Written = WrittenGame;

    /// `rounds` (filled rounds in order) or, with `how` = `final`, the `final` count.
    fn written(self) -> Result<WrittenGame, RuleError> {
        let players = self.players();
        let (rounds, summary) = match self.how.as_deref() {
            Some("final") => (None, Some(self.summary(&players)?)),
            None | Some("rounds") => (Some(self.rounds(&players)?), None),
            Some(other) => {
                return Err(RuleError::new(
                    "how",
                    format!("\"{other}\" is neither rounds nor final"),
                ));
            }
        };
        Ok(WrittenGame { rounds, summary })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn hand_event(pairs: &[(&str, &str)]) -> Result<Value, RuleError> {
        let body = pairs
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&");
        hand_form::hand_event::<super::super::Auction, Form>(body.as_bytes())
    }

    const SEATS: [(&str, &str); 2] = [("seat.0", "Ann"), ("seat.1", "Bob")];

    #[test]
    fn filled_rounds_become_the_documents_rounds_and_empty_ones_are_left_out() {
        // Round 0: a tie 7–7, overtime Ann 5 Bob 3; round 1: only Bob bid (3 or 4 players
        // may pass; the rules judge that); round 2: the Joker; rounds 3–8 empty.
        let mut pairs = SEATS.to_vec();
        pairs.extend([
            ("how", "rounds"),
            ("rounds.0.item", "Q"),
            ("rounds.0.bids.Ann", "7"),
            ("rounds.0.bids.Bob", "7"),
            ("rounds.0.overtime.0.Ann", "5"),
            ("rounds.0.overtime.0.Bob", "3"),
            ("rounds.0.overtime.1.Ann", ""),
            ("rounds.0.withdrawn.Ann", ""),
            ("rounds.1.item", "A"),
            ("rounds.1.bids.Ann", ""),
            ("rounds.1.bids.Bob", "9"),
            ("rounds.1.withdrawn.Bob", ""),
            ("rounds.2.item", "JOKER"),
            ("rounds.3.item", ""),
            ("rounds.3.bids.Ann", ""),
        ]);
        assert_eq!(
            hand_event(&pairs).unwrap(),
            json!({"type": "hand", "rounds": [
                {"item": "Q", "bids": {"Ann": 7, "Bob": 7}, "overtime": [{"Ann": 5, "Bob": 3}], "withdrawn": []},
                {"item": "A", "bids": {"Bob": 9}, "overtime": [], "withdrawn": []},
                {"item": "JOKER"}
            ]})
        );
    }

    #[test]
    fn a_withdrawal_is_written_in_seat_order() {
        let mut pairs = SEATS.to_vec();
        pairs.extend([
            ("rounds.0.item", "K"),
            ("rounds.0.bids.Ann", "6"),
            ("rounds.0.bids.Bob", "6"),
            ("rounds.0.withdrawn.Bob", "1"),
        ]);
        assert_eq!(
            hand_event(&pairs).unwrap()["rounds"][0]["withdrawn"],
            json!(["Bob"])
        );
    }

    #[test]
    fn the_final_count_lists_each_players_items_and_spending() {
        let mut pairs = SEATS.to_vec();
        pairs.extend([
            ("how", "final"),
            ("final.Ann.items.A", "2"),
            ("final.Ann.items.J", "1"),
            ("final.Ann.spent", "20"),
            ("final.Bob.items.K", "2"),
            ("final.Bob.items.Q", "2"),
            ("final.Bob.items.J", "1"),
            ("final.Bob.spent", "30"),
            ("rounds.0.item", ""),
        ]);
        assert_eq!(
            hand_event(&pairs).unwrap(),
            json!({"type": "hand", "final": {
                "Ann": {"items": ["A", "A", "J"], "spent": 20},
                "Bob": {"items": ["K", "K", "Q", "Q", "J"], "spent": 30}
            }})
        );
    }

    #[test]
    fn refusals_name_the_field() {
        let field = |extra: &[(&'static str, &'static str)]| {
            let mut pairs = SEATS.to_vec();
            pairs.extend_from_slice(extra);
            hand_event(&pairs).unwrap_err().field
        };
        assert_eq!(field(&[]), "rounds.0.item");
        assert_eq!(field(&[("rounds.0.bids.Ann", "7")]), "rounds.0.item");
        assert_eq!(
            field(&[("rounds.0.item", "Q"), ("rounds.2.item", "K")]),
            "rounds.2.item"
        );
        assert_eq!(field(&[("rounds.0.item", "X")]), "rounds.0.item");
        assert_eq!(
            field(&[("rounds.0.item", "JOKER"), ("rounds.0.bids.Bob", "4")]),
            "rounds.0.item"
        );
        assert_eq!(
            field(&[("rounds.0.item", "Q"), ("rounds.0.bids.Bob", "seven")]),
            "rounds.0.bids.Bob"
        );
        assert_eq!(
            field(&[("rounds.0.item", "Q"), ("rounds.0.overtime.1.Bob", "4")]),
            "rounds.0.overtime.1"
        );
        assert_eq!(
            field(&[("how", "final"), ("final.Ann.items.A", "3")]),
            "final.Ann.items.A"
        );
        assert_eq!(field(&[("how", "guess")]), "how");
    }
}
