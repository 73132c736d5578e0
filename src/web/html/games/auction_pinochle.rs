//! The Auction Pinochle pages: agreements, the score sheet with one row per hand, and the
//! hand form (rules §1.1–1.3).

use std::collections::HashMap;

use askama::Template;
use serde_json::{Map, Value};

use super::{
    AgreementField, FieldKind, GameView, RenderPage, given, number, signed, with_next_dealer,
};
use crate::error::AppError;
use crate::format::corrections::amendments;
use crate::ledger::KITTY;
use crate::rules::Suit;
use crate::rules::auction_pinochle::agreements::{Agreements, KittyKind};
use crate::rules::auction_pinochle::hand::Outcome;
use crate::service::Loaded;

/// The registration of the Auction Pinochle pages.
pub static VIEW: AuctionPinochleView = AuctionPinochleView;

/// The Auction Pinochle pages.
pub struct AuctionPinochleView;

/// One money cell of the sheet: this event's amount and the running balance after it.
pub struct Cell {
    /// `"+0.20"`, `"−0.10"` or empty.
    pub amount: String,
    /// The balance after the event.
    pub running: String,
    /// `"plus"`, `"minus"` or empty, for colour.
    pub class: &'static str,
}

/// One row of the sheet.
pub struct Row {
    /// The hand's number (1, 2, …) or empty for other events.
    pub number: String,
    /// Dealer, bidder, bid, trump symbol and outcome in words, for hands.
    pub contract: Option<[String; 5]>,
    /// For other events: what happened.
    pub note: String,
    /// The money per account.
    pub cells: Vec<Cell>,
    /// The reason in words.
    pub explanation: String,
    /// Whether a later correction replaced or undid this row (shown struck through).
    pub struck: bool,
    /// When and by which event it was changed, in words; empty if it stands.
    pub changed: String,
    /// The page that corrects this hand, for hands that stand in an open session.
    pub correct_link: Option<String>,
}

#[derive(Template)]
#[template(path = "games/auction_pinochle/sheet.html")]
struct Sheet {
    accounts: Vec<String>,
    rows: Vec<Row>,
    totals: Vec<Cell>,
}

#[derive(Template)]
#[template(path = "games/auction_pinochle/hand_form.html")]
struct HandForm {
    session_id: i64,
    seated: Vec<String>,
    expected_events: usize,
    min_bid: i64,
    values: HashMap<String, String>,
    error_field: Option<String>,
    outcomes: Vec<(&'static str, &'static str)>,
    suits: Vec<(&'static str, &'static str)>,
    dealer_sits_out: bool,
}

impl HandForm {
    fn value(&self, field: &str) -> String {
        self.values.get(field).cloned().unwrap_or_default()
    }

    fn selected(&self, field: &str, option: &str) -> bool {
        self.values.get(field).is_some_and(|v| v == option)
    }

    fn invalid(&self, field: &str) -> bool {
        self.error_field.as_deref() == Some(field)
    }
}

fn agreements_of(loaded: &Loaded) -> Result<Agreements, AppError> {
    Agreements::read(&loaded.doc.agreements)
        .map_err(|e| AppError::Internal(format!("stored agreements: {e}")))
}

fn text(event: &Value, field: &str) -> String {
    match event.get(field) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    }
}

fn cell(cents: i64, running: i64) -> Cell {
    Cell {
        amount: signed(cents),
        running: crate::money::Money::from_cents(running).to_string(),
        class: match cents.signum() {
            1 => "plus",
            -1 => "minus",
            _ => "",
        },
    }
}

impl GameView for AuctionPinochleView {
    fn agreement_fields(&self) -> Vec<AgreementField> {
        vec![
            AgreementField {
                name: "stake",
                label: "Stake per unit (per 100 points)",
                kind: FieldKind::Money,
                default: "0.05",
                help: "A unit is one step of the units table; 5¢ or 10¢ a hundred is most popular (rules §1.1).",
            },
            AgreementField {
                name: "units_table",
                label: "Units table",
                kind: FieldKind::Choice(vec![
                    ("standard", "standard: 250 = 2 units … 700 = 11 (Scarne)"),
                    ("bonus", "bonus: 350 = 5 … 700 = 30 (Scarne)"),
                    ("classic", "classic: 300 = 3, 350 = 5, 400 = 10 … 600 = 30"),
                ]),
                default: "standard",
                help: "Scarne: the bonus table must be agreed before the game; classic starts at 300 (rules §1.1, §1.3).",
            },
            AgreementField {
                name: "min_bid",
                label: "Minimum bid",
                kind: FieldKind::Number,
                default: "",
                help: "Leave empty for the table's lowest band: 250, or 300 with classic (rules §1.1).",
            },
            AgreementField {
                name: "spades_double",
                label: "Spades double",
                kind: FieldKind::Bool,
                default: "yes",
                help: "Scarne's own rule: a contract in spades pays and costs twice (rules §1.1).",
            },
            AgreementField {
                name: "hearts_triple",
                label: "Hearts triple",
                kind: FieldKind::Bool,
                default: "no",
                help: "Optional: a contract in hearts pays and costs three times (rules §1.1).",
            },
            AgreementField {
                name: "kitty",
                label: "Kitty",
                kind: FieldKind::Choice(vec![
                    ("none", "none"),
                    ("pot", "pot: antes, won by a made 350+ (Scarne)"),
                    ("account", "account: settles like a player on 350+"),
                ]),
                default: "none",
                help: "Pot: everyone antes the price of a 250 bid; a made 350+ takes it all; a failed one pays it double (rules §1.2). Account: the kitty pays and is paid like one more player on 350+ and may go negative (rules §1.3).",
            },
            AgreementField {
                name: "all_pass_ante",
                label: "Ante again when all pass (pot)",
                kind: FieldKind::Bool,
                default: "yes",
                help: "Kitty rule 2; the table may stop it by consent.",
            },
            AgreementField {
                name: "reante_after_win",
                label: "Ante again after the kitty is won (pot)",
                kind: FieldKind::Bool,
                default: "yes",
                help: "Without it, the kitty stays empty until the next all-pass deal.",
            },
            AgreementField {
                name: "kitty_spades_fail_multiplier",
                label: "Kitty penalty for a failed 350+ in spades",
                kind: FieldKind::NumberChoice(vec![2, 3]),
                default: "2",
                help: "Kitty rule 5: twice the kitty; 3 times only by unanimous agreement.",
            },
            AgreementField {
                name: "kitty_hearts_fail_multiplier",
                label: "Kitty penalty for a failed 350+ in hearts (hearts triple)",
                kind: FieldKind::NumberChoice(vec![2, 3, 4]),
                default: "2",
                help: "Kitty rule 5: twice the kitty; 4 times only by unanimous agreement (Scarne does not recommend it).",
            },
        ]
    }

    fn agreements_summary(&self, loaded: &Loaded) -> Vec<(String, String)> {
        let Ok(a) = agreements_of(loaded) else {
            return Vec::new();
        };
        let bands: Vec<String> = a
            .units_table
            .bands()
            .iter()
            .map(|b| format!("{} = {}", a.units_table.band_label(b.lowest_bid), b.units))
            .collect();
        let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
        let mut summary = vec![
            (
                "Stake".into(),
                format!("{} {} a unit", a.stake, loaded.doc.currency),
            ),
            (
                "Units table".into(),
                format!("{}: {}", a.units_table.name, bands.join(", ")),
            ),
            ("Minimum bid".into(), a.min_bid.to_string()),
            ("Spades double".into(), yes_no(a.spades_double)),
            ("Hearts triple".into(), yes_no(a.hearts_triple)),
        ];
        let kitty = match a.kitty {
            KittyKind::None => "none".to_string(),
            KittyKind::Account => {
                "an account that settles like a player on bids of 350 or more (rules §1.3)"
                    .to_string()
            }
            KittyKind::Pot => format!(
                "pot: ante {}; all-pass ante {}; re-ante after a win {}; failed 350+ pays {}× the kitty ({}× in spades, {}× in hearts-triple hearts)",
                a.ante(),
                yes_no(a.pot.all_pass_ante),
                yes_no(a.pot.reante_after_win),
                2,
                a.pot.spades_fail_multiplier,
                a.pot.hearts_fail_multiplier
            ),
        };
        summary.push(("Kitty".into(), kitty));
        summary
    }

    fn sheet(&self, loaded: &Loaded) -> Result<String, AppError> {
        let mut accounts: Vec<String> = loaded
            .ledger
            .balances
            .keys()
            .filter(|k| *k != KITTY)
            .cloned()
            .collect();
        // Seat order reads better than alphabetical: players first as seated, newcomers after.
        accounts.sort_by_key(|a| {
            loaded
                .doc
                .players
                .iter()
                .position(|p| p == a)
                .unwrap_or(usize::MAX)
        });
        if loaded.ledger.balances.contains_key(KITTY) {
            accounts.push(KITTY.to_string());
        }
        let amended = amendments(&loaded.doc);
        let closed = loaded.closed();
        let recorded_at = |index: usize| {
            loaded
                .rows
                .iter()
                .find(|r| r.seq == index as i64 + 1)
                .map(|r| r.recorded_at.replace('T', " ").replace('Z', " UTC"))
                .unwrap_or_default()
        };
        let mut running: HashMap<String, i64> = HashMap::new();
        let mut rows = Vec::new();
        let mut hand_number = 0;
        for entry in &loaded.ledger.events {
            let event = if entry.seq == 0 {
                Value::Null
            } else {
                loaded.doc.events[entry.seq - 1].clone()
            };
            let cells = accounts
                .iter()
                .map(|a| {
                    let amount: i64 = entry
                        .postings
                        .iter()
                        .filter(|p| &p.account == a)
                        .map(|p| p.amount.cents())
                        .sum();
                    let total = running.entry(a.clone()).or_insert(0);
                    *total += amount;
                    cell(amount, *total)
                })
                .collect();
            let (number, contract, note) = if entry.kind == "hand" {
                hand_number += 1;
                let contract = if event.get("all_passed").and_then(Value::as_bool) == Some(true) {
                    [
                        text(&event, "dealer"),
                        "all passed".into(),
                        String::new(),
                        String::new(),
                        String::new(),
                    ]
                } else {
                    let trump = event
                        .get("trump")
                        .and_then(|t| serde_json::from_value::<Suit>(t.clone()).ok())
                        .map(|s| s.symbol().to_string())
                        .unwrap_or_default();
                    let outcome = event
                        .get("outcome")
                        .and_then(|o| serde_json::from_value::<Outcome>(o.clone()).ok())
                        .map(|o| o.words().to_string())
                        .unwrap_or_else(|| "from meld and counters".into());
                    [
                        text(&event, "dealer"),
                        text(&event, "bidder"),
                        text(&event, "bid"),
                        trump,
                        outcome,
                    ]
                };
                (hand_number.to_string(), Some(contract), String::new())
            } else if let Some(target) = event.get("event").and_then(Value::as_u64) {
                let what = if entry.kind == "void" {
                    "undoes"
                } else {
                    "corrects"
                };
                (String::new(), None, format!("{what} event {target}"))
            } else {
                (String::new(), None, entry.kind.replace('_', " "))
            };
            let index = entry.seq.wrapping_sub(1);
            let changed = match amended.changed_by.get(&index) {
                Some(by) if entry.seq > 0 => by
                    .iter()
                    .map(|i| {
                        let what = if amended.voided.contains(&index) && *i == by[by.len() - 1] {
                            "undone"
                        } else {
                            "corrected"
                        };
                        format!("{what} {} (event {i})", recorded_at(*i))
                    })
                    .collect::<Vec<_>>()
                    .join("; "),
                _ => String::new(),
            };
            let standing_hand = entry.kind == "hand" && !amended.voided.contains(&index);
            rows.push(Row {
                number,
                contract,
                note,
                cells,
                explanation: entry.explanation.clone(),
                struck: !changed.is_empty(),
                changed,
                correct_link: (standing_hand && !closed)
                    .then(|| format!("/sessions/{}?correct={index}#correct", loaded.id)),
            });
        }
        let totals = accounts
            .iter()
            .map(|a| {
                let balance = loaded.ledger.balances.get(a).map_or(0, |m| m.cents());
                cell(balance, balance)
            })
            .collect::<Vec<_>>();
        Sheet {
            accounts,
            rows,
            totals,
        }
        .render_page()
    }

    fn hand_form(
        &self,
        loaded: &Loaded,
        values: &HashMap<String, String>,
        error_field: Option<&str>,
    ) -> Result<String, AppError> {
        let agreements = agreements_of(loaded)?;
        let values = with_next_dealer(loaded, values);
        HandForm {
            session_id: loaded.id,
            seated: loaded.seated.clone(),
            expected_events: loaded.doc.events.len(),
            min_bid: agreements.min_bid,
            values,
            error_field: error_field.map(String::from),
            outcomes: Outcome::ALL.iter().map(|o| (o.id(), o.words())).collect(),
            suits: Suit::ALL.iter().map(|s| (s.name(), s.symbol())).collect(),
            dealer_sits_out: loaded.seated.len() == 4,
        }
        .render_page()
    }

    fn hand_event(&self, form: &HashMap<String, String>) -> Result<Value, AppError> {
        let mut event = Map::new();
        event.insert("type".into(), "hand".into());
        let dealer = given(form, "dealer").ok_or_else(|| AppError::BadRequest {
            field: "dealer".into(),
            message: "who dealt?".into(),
        })?;
        event.insert("dealer".into(), dealer.into());
        if given(form, "all_passed").is_some() {
            event.insert("all_passed".into(), true.into());
            return Ok(Value::Object(event));
        }
        for field in ["bidder", "trump", "outcome", "renege_by", "bidder_cash"] {
            if let Some(v) = given(form, field) {
                event.insert(field.into(), v.into());
            }
        }
        for field in ["bid", "meld", "counters"] {
            if let Some(v) = number(form, field)? {
                event.insert(field.into(), v.into());
            }
        }
        if event.get("outcome").and_then(Value::as_str) != Some("defender_renege") {
            event.remove("renege_by");
        }
        Ok(Value::Object(event))
    }
}
