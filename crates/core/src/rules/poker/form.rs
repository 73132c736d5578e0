//! Poker's pages: new-session agreements, the agreements in words, and the hand form
//! (rules §1.11): dealer, high or high-low, and per player an ante tap, what he put in
//! beyond it (smallest units), folded and all-in taps, and the showdown by place (1 =
//! best, equal places tie) or by cards. Board variants add one `board` field; under
//! 8-or-better a low place may stay empty.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::agreements::{Agreements, OddChip, OddChipHighLow, OddChipLowCard};
use super::board::Variant;
use super::cards::LowRule;
use super::hand::{SplitKind, WrittenHand};
use crate::money::Money;
use crate::rules::game::{Choice, HandFormSpec};
use crate::rules::hand_form::{self, choice, text};
use crate::rules::{AgreementSpec, Field, RuleError, SpecKind};

/// The agreements the new-session form offers (rules §1.11, §3 items 32–33).
pub static AGREEMENTS: &[AgreementSpec] = &[
    AgreementSpec {
        name: "smallest_unit",
        label: "Smallest chip",
        kind: SpecKind::Money,
        default: "0.05",
        help: "Every amount put in and every share of a split pot is a whole number of these (rules §1.11).",
    },
    AgreementSpec {
        name: "ante",
        label: "Ante",
        kind: SpecKind::Money,
        default: "",
        help: "What each player puts in to be dealt in (S004's group: a nickel); empty (the default) for none.",
    },
    AgreementSpec {
        name: "odd_chip",
        label: "Odd chip of a split pot",
        kind: SpecKind::Choice(&[
            (
                "first_left_of_dealer",
                "to the first winner left of the dealer",
            ),
            (
                "high_card_by_suit",
                "to the highest card by suit (stud; needs cards)",
            ),
            ("carry", "stays in the pot for the next hand"),
        ]),
        default: "first_left_of_dealer",
        help: "Never more than one odd chip per player per pot; in high-low the high half gets it (RRP, rules §3 item 32).",
    },
    AgreementSpec {
        name: "odd_chip_high_low",
        label: "Odd chips of a high-low pot",
        kind: SpecKind::Choice(&[
            ("one_per_pot", "one per player per pot, both halves counted"),
            ("per_half", "each half split on its own"),
        ]),
        default: "one_per_pot",
        help: "RRP: no player receives more than one odd chip, and identical hands split the pot as evenly as possible.",
    },
    AgreementSpec {
        name: "odd_chip_low_card",
        label: "Odd chip of a tied low half, by the cards",
        kind: SpecKind::Choice(&[
            ("lowest", "to the lowest card by suit"),
            ("highest", "to the highest card by suit"),
        ]),
        default: "lowest",
        help: "With the odd chip by the highest card: RRP gives a low half's odd chip to the lowest card (the ace is low in ace to five).",
    },
    AgreementSpec {
        name: "variant",
        label: "Cards",
        kind: SpecKind::Choice(&[
            ("own_cards", "each player's own hand (draw, stud)"),
            ("holdem", "Hold'em: 2 hole cards and a board"),
            (
                "omaha",
                "Omaha: 4 hole cards, exactly 2 with 3 of the board",
            ),
        ]),
        default: "own_cards",
        help: "With a board each player's cards are his hole cards and the hand has the board's 3 to 5 cards; Omaha plays exactly two hole cards (session-format, Boards and qualifiers).",
    },
    AgreementSpec {
        name: "eight_or_better",
        label: "Low must be 8 or better (high-low)",
        kind: SpecKind::Tick,
        default: "no",
        help: "A low needs five different ranks of 8 or lower, aces low; when no low qualifies the high hand takes the whole pot (session-format, Boards and qualifiers).",
    },
    AgreementSpec {
        name: "low",
        label: "Low hands (high-low)",
        kind: SpecKind::Choice(&[
            ("ace_to_five", "ace to five: 5-4-3-2-A best"),
            ("deuce_to_seven", "deuce to seven: 7-5-4-3-2 best"),
        ]),
        default: "ace_to_five",
        help: "Ace to five: aces low, straights and flushes do not count. Deuce to seven: aces high, straights and flushes count against you.",
    },
    AgreementSpec {
        name: "max_first_bet",
        label: "Most a first bet may be",
        kind: SpecKind::Money,
        default: "",
        help: "S004's group: $0.50. Empty: no limit. Checked when the betting is written.",
    },
    AgreementSpec {
        name: "max_raise",
        label: "Most one raise may be",
        kind: SpecKind::Money,
        default: "",
        help: "S004's group: $0.50. Empty: no limit.",
    },
    AgreementSpec {
        name: "max_raises_total_per_round",
        label: "Most the raises of one round may add up to",
        kind: SpecKind::Money,
        default: "",
        help: "S004's group: $1.00, the opening bet not counted (rules §3 item 33). Empty: no limit.",
    },
];

/// The agreements in words, as `(label, value)`, for the top of the sheet.
pub fn summary(a: &Agreements, currency: &str) -> Vec<(String, String)> {
    let limit = |m: Option<Money>| m.map_or("no limit".to_string(), |m| m.shown(currency));
    let wild = match (a.wild.jokers, a.wild.deuces) {
        (false, false) => "none",
        (true, false) => "jokers",
        (false, true) => "deuces",
        (true, true) => "jokers and deuces",
    };
    let mut lines = vec![
        (
            "Pots".to_string(),
            "each pot to the best hand eligible for it; ties split in whole chips".to_string(),
        ),
        ("Smallest chip".into(), a.unit.shown(currency)),
        (
            "Ante".into(),
            a.ante.map_or("none".to_string(), |m| m.shown(currency)),
        ),
        ("Odd chip".into(), a.odd_chip.words().to_string()),
        ("Odd chips high-low".into(), high_low_words(a)),
        ("Wild cards".into(), wild.to_string()),
        (
            "Low".into(),
            match a.low {
                LowRule::AceToFive => "ace to five (5-4-3-2-A best)".to_string(),
                LowRule::DeuceToSeven => "deuce to seven (7-5-4-3-2 best)".to_string(),
            },
        ),
        ("First bet".into(), limit(a.max_first_bet)),
        ("Raise".into(), limit(a.max_raise)),
        (
            "Raises per round".into(),
            format!(
                "{} (the opening bet not counted)",
                limit(a.max_raises_total)
            ),
        ),
    ];
    // Shown only when agreed: own-cards sheets say nothing of boards.
    if a.variant != Variant::OwnCards {
        lines.insert(1, ("Cards".into(), a.variant.words().to_string()));
    }
    if a.eight_or_better {
        lines.push((
            "Low qualifier".into(),
            "8 or better: else the high hand takes the whole pot".into(),
        ));
    }
    lines
}

/// The high-low odd-chip agreements in words.
fn high_low_words(a: &Agreements) -> String {
    let limit = match a.odd_chip_high_low {
        OddChipHighLow::OnePerPot => "one per player per pot, both halves counted",
        OddChipHighLow::PerHalf => "each half split on its own",
    };
    let card = match (a.odd_chip, a.odd_chip_low_card) {
        (OddChip::HighCardBySuit, OddChipLowCard::Lowest) => {
            "; a tied low half's to the lowest card"
        }
        (OddChip::HighCardBySuit, OddChipLowCard::Highest) => {
            "; a tied low half's to the highest card"
        }
        _ => "",
    };
    format!("{limit}{card}")
}

/// What the hand form offers: players, places, how pots are won, the ante (hidden, added
/// by the taps), the smallest chip (the steppers' step), `board` and `eight_or_better`
/// where agreed. `note` asks for cards when the odd chip goes by the highest card.
pub fn offer(players: &[String], a: &Agreements) -> HandFormSpec {
    let mut lists = vec![
        (
            "players",
            players
                .iter()
                .map(|p| Choice::new(p.as_str(), p.as_str()))
                .collect(),
        ),
        (
            "places",
            (1..=players.len())
                .map(|i| Choice::new(i.to_string(), i.to_string()))
                .collect(),
        ),
        ("splits", splits(a.eight_or_better)),
        (
            "unit",
            vec![Choice::new(a.unit.to_string(), a.unit.to_string())],
        ),
    ];
    if let Some(ante) = a.ante {
        lists.push((
            "ante",
            vec![Choice::new(ante.to_string(), ante.to_string())],
        ));
    }
    if let Some(hole) = a.variant.hole_cards() {
        lists.push((
            "board",
            vec![Choice::new(hole.to_string(), a.variant.words())],
        ));
    }
    if a.eight_or_better {
        lists.push(("eight_or_better", vec![Choice::new("yes", "8 or better")]));
    }
    if a.wild.jokers {
        lists.push(("jokers", vec![Choice::new("JK", "joker")]));
    }
    HandFormSpec {
        min_bid: 0,
        lists,
        note: (a.odd_chip == OddChip::HighCardBySuit)
            .then(|| "The odd chip goes by the highest card: write the cards of the players in the showdown.".to_string()),
    }
}

/// How a pot may go, the form's first choice checked: high-low first at an 8-or-better
/// table, whose pots are split high-low whenever a low qualifies (rules §1.11).
fn splits(eight_or_better: bool) -> Vec<Choice> {
    let mut splits = vec![
        Choice::new("high", "high: best hand takes the pot"),
        Choice::new("high_low", "high-low: half to high, half to low"),
    ];
    if eight_or_better {
        splits.reverse();
    }
    splits
}

/// The submitted hand form (`templates/games/poker/hand_form.html`): dealer, `split`,
/// hidden `ante` and `eight_or_better`, `board`, and per player `anted.<p>`, `put_in.<p>`,
/// `folded.<p>`, `all_in.<p>`, `place.<p>`, `low.<p>`, `cards.<p>`.
#[derive(Debug, Default, Deserialize)]
pub struct Form {
    #[serde(default, deserialize_with = "text")]
    dealer: Option<String>,
    #[serde(default, deserialize_with = "choice")]
    split: Option<SplitKind>,
    #[serde(default, deserialize_with = "text")]
    ante: Option<String>,
    #[serde(default, deserialize_with = "text")]
    board: Option<String>,
    #[serde(default, deserialize_with = "text")]
    eight_or_better: Option<String>,
    #[serde(flatten)]
    per_player: BTreeMap<String, String>,
}

impl Form {
    fn get(&self, field: &str) -> Option<&str> {
        self.per_player
            .get(field)
            .map(|t| t.trim())
            .filter(|t| !t.is_empty())
    }

    fn ticked(&self, field: &str) -> bool {
        self.get(field).is_some_and(|v| v != "false")
    }

    /// Money typed in `field`, which the error names (one player's entry typed as his).
    fn money(&self, field: &Field) -> Result<Option<Money>, RuleError> {
        self.get(&field.to_string())
            .map(|t| Money::parse(t).map_err(|e| RuleError::new(field, e.to_string())))
            .transpose()
    }

    /// A showdown place typed in `field`, which the error names.
    fn place(&self, field: &Field) -> Result<Option<usize>, RuleError> {
        self.get(&field.to_string())
            .map(|t| {
                t.parse::<usize>().ok().filter(|p| *p >= 1).ok_or_else(|| {
                    RuleError::new(field, format!("\"{t}\" is not a place: 1 is the best hand"))
                })
            })
            .transpose()
    }

    /// The players the form names: every `put_in.<name>` field, in name order.
    fn named(&self) -> Vec<String> {
        self.per_player
            .keys()
            .filter_map(|k| k.strip_prefix("put_in."))
            .map(String::from)
            .collect()
    }

    /// Tie groups from `prefix.<name>` places; with `partial` an empty place is no low.
    fn groups(
        &self,
        prefix: &str,
        left: &[String],
        word: &str,
        partial: bool,
    ) -> Result<Vec<Vec<String>>, RuleError> {
        let mut by_place: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for p in left {
            let field = Field::name(prefix).player(p);
            let Some(place) = self.place(&field)? else {
                if partial {
                    continue;
                }
                return Err(RuleError::new(
                    &field,
                    format!(
                        "{p} is in the showdown: tap his {word}place (1 = best, equal places tie)"
                    ),
                ));
            };
            by_place.entry(place).or_default().push(p.clone());
        }
        Ok(by_place.into_values().collect())
    }
}

/// Each player's part in a hand as the form gives it.
struct Seats {
    contributions: Map<String, Value>,
    folded: Vec<String>,
    all_in: Vec<String>,
    /// Who is left for the showdown: everyone who did not fold.
    left: Vec<String>,
}

impl Form {
    /// Each player's contribution (tapped ante plus the rest), folded or all-in (not both).
    fn seats(&self, names: &[String], ante: Money) -> Result<Seats, RuleError> {
        let mut seats = Seats {
            contributions: Map::new(),
            folded: Vec::new(),
            all_in: Vec::new(),
            left: Vec::new(),
        };
        for p in names {
            let beyond = self
                .money(&Field::name("put_in").player(p))?
                .unwrap_or(Money::ZERO);
            let anted = if self.ticked(&format!("anted.{p}")) {
                ante
            } else {
                Money::ZERO
            };
            seats
                .contributions
                .insert(p.clone(), Value::from((anted + beyond).to_string()));
            let f = self.ticked(&format!("folded.{p}"));
            let a = self.ticked(&format!("all_in.{p}"));
            if f && a {
                return Err(RuleError::new(
                    Field::name("all_in").player(p),
                    format!("{p} cannot be both folded and all-in: tap one"),
                ));
            }
            if f {
                seats.folded.push(p.clone());
                for showdown in ["place", "low", "cards"] {
                    let field = Field::name(showdown).player(p);
                    if self.get(&field.to_string()).is_some() {
                        return Err(RuleError::new(
                            field,
                            format!("{p} folded: leave his showdown empty"),
                        ));
                    }
                }
            } else {
                seats.left.push(p.clone());
            }
            if a {
                seats.all_in.push(p.clone());
            }
        }
        Ok(seats)
    }
}

impl hand_form::HandForm for Form {
    type Written = WrittenHand;

    /// The showdown comes from the cards if any are typed, else from the places.
    fn written(self) -> Result<WrittenHand, RuleError> {
        let dealer = self
            .dealer
            .clone()
            .ok_or_else(|| RuleError::new("dealer", "who dealt?"))?;
        let names = self.named();
        if names.is_empty() {
            return Err(RuleError::new("form", "the form names no players"));
        }
        let ante = match self.ante.as_deref() {
            Some(t) => Money::parse(t).map_err(|e| RuleError::new("ante", e.to_string()))?,
            None => Money::ZERO,
        };
        let Seats {
            contributions,
            folded,
            all_in,
            left,
        } = self.seats(&names, ante)?;
        let split = self.split.unwrap_or_default();
        let typed_cards: Map<String, Value> = left
            .iter()
            .filter_map(|p| {
                self.get(&format!("cards.{p}"))
                    .map(|c| (p.clone(), Value::from(c)))
            })
            .collect();
        let (mut showdown, mut showdown_low, mut cards) = (None, None, None);
        if !typed_cards.is_empty() {
            cards = Some(typed_cards);
        } else if left.len() > 1 {
            showdown = Some(self.groups("place", &left, "", false)?);
            if split == SplitKind::HighLow {
                let partial = self.eight_or_better.is_some();
                showdown_low = Some(self.groups("low", &left, "low ", partial)?);
            }
        }
        let board = self.board.clone();
        Ok(WrittenHand {
            dealer,
            contributions,
            folded,
            all_in,
            split,
            showdown,
            showdown_low,
            cards,
            board,
            rounds: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::hand_form::hand_event;
    use crate::rules::typed::TableAgreements;
    use serde_json::json;

    #[test]
    fn the_form_writes_the_hand_as_the_document_does() {
        // Ante 0.05 tapped for everyone; Ann and Bob 0.45 beyond it, Cy folded on the ante.
        let body = "dealer=Cy&split=high&ante=0.05\
            &anted.Ann=on&put_in.Ann=0.45&place.Ann=1\
            &anted.Bob=on&put_in.Bob=0.45&place.Bob=1\
            &anted.Cy=on&put_in.Cy=&folded.Cy=on";
        let event = hand_event::<super::super::Poker, Form>(body.as_bytes()).unwrap();
        assert_eq!(
            event,
            json!({"type": "hand", "dealer": "Cy",
                   "contributions": {"Ann": "0.50", "Bob": "0.50", "Cy": "0.05"},
                   "folded": ["Cy"], "all_in": [], "split": "high",
                   "showdown": [["Ann", "Bob"]]})
        );
    }

    #[test]
    fn high_low_places_and_cards() {
        let body = "dealer=Ann&split=high_low&put_in.Ann=0.30&all_in.Ann=on&place.Ann=2&low.Ann=1\
            &put_in.Bob=0.50&place.Bob=1&low.Bob=2";
        let event = hand_event::<super::super::Poker, Form>(body.as_bytes()).unwrap();
        assert_eq!(event["showdown"], json!([["Bob"], ["Ann"]]));
        assert_eq!(event["showdown_low"], json!([["Ann"], ["Bob"]]));
        assert_eq!(event["all_in"], json!(["Ann"]));
        let body = "dealer=Ann&put_in.Ann=0.50&cards.Ann=AS+KS+QS+JS+TS&put_in.Bob=0.50&cards.Bob=2C+3D+4H+5S+7C";
        let event = hand_event::<super::super::Poker, Form>(body.as_bytes()).unwrap();
        assert_eq!(event["cards"]["Ann"], json!("AS KS QS JS TS"));
        assert!(event.get("showdown").is_none());
    }

    #[test]
    fn the_board_and_eight_or_better_low_places() {
        // The board goes into the event as typed; hole cards stay per player.
        let body = "dealer=Ann&board=AH+KD+7C+7S+2D&put_in.Ann=0.50&cards.Ann=AS+AD&put_in.Bob=0.50&cards.Bob=KS+QS";
        let event = hand_event::<super::super::Poker, Form>(body.as_bytes()).unwrap();
        assert_eq!(event["board"], json!("AH KD 7C 7S 2D"));
        assert_eq!(event["cards"]["Bob"], json!("KS QS"));
        // At an 8-or-better table an empty low place is no qualifying low.
        let places = "dealer=Ann&split=high_low&put_in.Ann=0.50&place.Ann=1&low.Ann=\
            &put_in.Bob=0.50&place.Bob=2&low.Bob=1";
        let event = hand_event::<super::super::Poker, Form>(
            format!("{places}&eight_or_better=yes").as_bytes(),
        )
        .unwrap();
        assert_eq!(event["showdown_low"], json!([["Bob"]]));
        assert!(event.get("board").is_none());
        // Elsewhere Ann's low place is still asked for.
        assert_eq!(
            hand_event::<super::super::Poker, Form>(places.as_bytes())
                .unwrap_err()
                .field,
            "low.Ann"
        );
        // The form offers the board only under a board variant.
        let players = ["Ann".to_string(), "Bob".to_string()];
        let own = Agreements::read(json!({}).as_object().unwrap()).unwrap();
        assert!(offer(&players, &own).list("board").is_empty());
        let omaha = Agreements::read(json!({"variant": "omaha"}).as_object().unwrap()).unwrap();
        assert_eq!(offer(&players, &omaha).list("board")[0].value, "4");
    }

    #[test]
    fn an_eight_or_better_table_offers_high_low_first_and_wild_jokers_a_joker() {
        let players = ["Ann".to_string(), "Bob".to_string()];
        let first = |agreed: serde_json::Value| {
            let a = Agreements::read(agreed.as_object().unwrap()).unwrap();
            let spec = offer(&players, &a);
            (
                spec.list("splits")[0].value.clone(),
                spec.list("jokers").len(),
            )
        };
        assert_eq!(first(json!({})), ("high".to_string(), 0));
        let omaha8 = json!({"variant": "omaha", "eight_or_better": true, "wild": ["jokers"]});
        assert_eq!(first(omaha8), ("high_low".to_string(), 1));
    }

    #[test]
    fn refusals_name_the_field() {
        let e = hand_event::<super::super::Poker, Form>(b"put_in.Ann=0.50&put_in.Bob=0.50")
            .unwrap_err();
        assert_eq!(e.field, "dealer");
        let e = hand_event::<super::super::Poker, Form>(
            b"dealer=Ann&put_in.Ann=0.50&place.Ann=1&put_in.Bob=0.50",
        )
        .unwrap_err();
        assert_eq!(e.field, "place.Bob");
        let e =
            hand_event::<super::super::Poker, Form>(b"dealer=Ann&put_in.Ann=lots&put_in.Bob=0.50")
                .unwrap_err();
        assert_eq!(e.field, "put_in.Ann");
        let e = hand_event::<super::super::Poker, Form>(
            b"dealer=Ann&put_in.Ann=0.5&folded.Ann=on&place.Ann=1&put_in.Bob=0.50",
        )
        .unwrap_err();
        assert_eq!(e.field, "place.Ann");
    }
}
