//! The score-sheet page, the same for every game: the agreements, the sheet built by
//! [`crate::session::sheet`], the game's own hand form (from [`crate::registry`]), a
//! correction form, the balances and the settle-up.

use std::collections::{BTreeMap, HashMap};

use askama::Template;
use askama_web::WebTemplate;

use super::PageError;
use crate::error::AppError;
use crate::ledger::KITTY;
use crate::ledger::settle_up::{Transfer, fewest_transfers_preferring};
use crate::registry::{self, HandFormData};
use crate::rules::game::{Choice, HandFormSpec, form_values};
use crate::service::Loaded;
use crate::session::sheet::{
    self as model, Context, MoneyView, SheetView, money, money_views, signed_money,
};
use crate::session::why::standing_amounts;

/// The score-sheet page.
#[derive(Template, WebTemplate)]
#[template(path = "sessions/sheet.html")]
pub struct SheetPage {
    id: i64,
    /// The viewer holds this session's write link (a session without a club, reached only
    /// through its links), so the sheet points to the page that shows them to pass on.
    offers_links: bool,
    game_name: String,
    rules: String,
    created_at: String,
    created_words: String,
    agreements: Vec<(String, String)>,
    sheet: SheetView,
    hand_form: String,
    correction_form: String,
    correcting: String,
    expected_events: usize,
    undo: Option<String>,
    can_write: bool,
    balances: Vec<(String, String, &'static str)>,
    settlement: Vec<TransferView>,
    settlement_text: String,
    closed: bool,
    unfinished: Option<String>,
    payments: Vec<PaymentView>,
    close_effect: Vec<MoneyView>,
    error: Option<PageError>,
    /// Who deals the next hand, for a watcher's first screen (`None` when closed or the
    /// game has no dealer).
    next_dealer: Option<String>,
    /// Who is up, for a watcher's first screen: `(name, amount with currency, class)`, the
    /// players from the most ahead down, the kitty last.
    standings: Vec<(String, String, &'static str)>,
}

/// A payment that stands, which a writer may void (a mis-tapped "Mark paid").
pub struct PaymentView {
    /// The payment's event index, for the void.
    pub event: usize,
    /// "Bob paid Ann 0.40".
    pub words: String,
}

/// The stale-phone message, counted in hands as the sheet numbers them: what changed since
/// the `seen` events the form was made from ("hand 12 was just entered by another device").
pub fn stale_words(fold: &crate::session::Fold, seen: Option<usize>) -> String {
    let since: Vec<&crate::session::Row> = fold
        .rows()
        .iter()
        .filter(|r| r.index.is_some_and(|i| seen.is_none_or(|s| i >= s)))
        .collect();
    let hands: Vec<usize> = since.iter().filter_map(|r| r.hand_number).collect();
    let what = match (hands.first(), hands.last()) {
        (Some(a), Some(b)) if a == b => format!("hand {a} was just entered"),
        (Some(a), Some(b)) => format!("hands {a} to {b} were just entered"),
        _ => match since.last().map(|r| r.kind.as_str()) {
            Some("correction") => "a hand was just corrected".to_string(),
            Some("void") => "a hand was just undone".to_string(),
            Some("close") => "the sitting was just closed".to_string(),
            Some("reopen") => "the sitting was just reopened".to_string(),
            Some("payment") => "a payment was just marked".to_string(),
            _ => "the sheet was just changed".to_string(),
        },
    };
    format!("{what} by another device; the sheet now shows it, so check before entering again")
}

/// One proposed payment of the settle-up and the money behind it.
pub struct TransferView {
    /// Who pays ("Kitty" for the kitty).
    pub from: String,
    /// Who is paid.
    pub to: String,
    /// The amount with the currency's symbol: "$1.25".
    pub amount: String,
    /// The transfer as recorded by "Mark paid".
    pub transfer: Transfer,
    /// Where each balance came from, in a few groups: `(who, "hands 1–3 +$0.75 · …")`.
    pub summary: Vec<(String, String)>,
    /// Where both balances came from, event by event.
    pub why: String,
}

/// An amount with the session's currency as players write it: "$3.80", "€3.80", "£3.80";
/// other currencies by their code, "3.80 CHF" (the one formatter, [`crate::money`]'s).
pub fn with_currency(amount: &str, currency: &str) -> String {
    crate::money::with_currency(amount, currency)
}

/// "2026-05-01 20:15 UTC" from a stored RFC 3339 time (seconds and fractions dropped); a
/// page's script shows the `<time>` around it in the reader's own zone.
pub fn time_words(rfc3339: &str) -> String {
    match chrono::DateTime::parse_from_rfc3339(rfc3339) {
        Ok(t) => t
            .with_timezone(&chrono::Utc)
            .format("%Y-%m-%d %H:%M UTC")
            .to_string(),
        Err(_) => rfc3339.replace('T', " ").replace('Z', " UTC"),
    }
}

/// Where an account's balance came from, event by event, in the session's currency: "Ann
/// −$0.70: opening ante −$0.10, hand 1 −$0.40, hand 2 (corrected) −$0.20, close +$0.10".
/// Only what stands ([`standing_amounts`]): an undone hand or payment is left out, a
/// corrected hand shows its corrected amount, so the parts add up to the total.
fn history_of(loaded: &Loaded, account: &str) -> String {
    let money = |cents: i64| with_currency(&signed_money(cents), &loaded.doc.currency);
    let mut parts = Vec::new();
    for (row, cents) in standing_amounts(&loaded.fold, account) {
        let label = match (row.kind.as_str(), row.hand_number) {
            ("opening_ante", _) => "opening ante".to_string(),
            (_, Some(n)) if row.struck() => format!("hand {n} (corrected)"),
            (_, Some(n)) => format!("hand {n}"),
            (kind, _) => kind.replace('_', " "),
        };
        if cents != 0 {
            parts.push(format!("{label} {}", money(cents)));
        }
    }
    let name = if account == KITTY { "Kitty" } else { account };
    let total = loaded.fold.balances().get(account).cents();
    format!("{name} {}: {}", money(total), parts.join(", "))
}

/// How many lines the sheet page shows unless asked for all: a club night fits whole, a
/// marathon session shows its latest hands, the earlier ones a tap away.
pub const SHEET_LINES: usize = 50;

/// How many lines a watcher's phone (a read-only viewer) shows unless asked for all: the
/// latest hands fit its first screen under the standings, the whole sheet is a tap away
/// (issue 24 point 1; measured by `tests/browser_fit.rs` on a 20-hand sheet at 390 px).
pub const WATCHER_LINES: usize = 2;

impl SheetPage {
    /// The same page offering the session's links page when `holds_link` (the viewer came
    /// in through the session's write link) and the viewer may write.
    pub fn offering_links(self, holds_link: bool) -> SheetPage {
        SheetPage {
            offers_links: holds_link && self.can_write,
            ..self
        }
    }
}

/// The page for `loaded`: `values` are the form's values after a refusal (or
/// `correct_event` to open a correction), `error` the refusal, `can_write` whether the
/// viewer may enter hands. Errors: a template failure (internal).
pub fn sheet_page(
    loaded: &Loaded,
    values: &HashMap<String, String>,
    error: Option<PageError>,
    can_write: bool,
) -> Result<SheetPage, AppError> {
    let fold = &loaded.fold;
    let game = fold.game();
    let error_field = error.as_ref().and_then(|e| e.field.clone());
    let open = !loaded.closed() && can_write;
    let recorded: BTreeMap<usize, String> = loaded
        .rows
        .iter()
        .filter_map(|r| {
            let index = usize::try_from(r.seq).ok()?.checked_sub(1)?;
            Some((index, r.recorded_at.clone()))
        })
        .collect();
    let sheet = model::sheet(
        fold,
        &Context {
            session_id: loaded.id,
            correctable: open,
            recorded: &recorded,
            last: (!values.contains_key("all")).then_some(if can_write {
                SHEET_LINES
            } else {
                WATCHER_LINES
            }),
            currency: &loaded.doc.currency,
        },
    );
    let correct_event = correct_event_of(loaded, values);
    let correcting = correct_event.and_then(|i| fold.hand_number(i));
    let (hand_form, correction_form) = hand_forms(loaded, values, error_field, open, None)?;
    let undo = if open {
        fold.last_standing_hand()
            .and_then(|i| fold.hand_number(i))
            .map(|n| format!("hand {n}"))
    } else {
        None
    };
    let balances = loaded
        .ledger
        .balances
        .iter()
        .map(|(k, v)| {
            let class = match v.cents().signum() {
                1 => "plus",
                -1 => "minus",
                _ => "",
            };
            let name = if k == KITTY {
                "Kitty".into()
            } else {
                k.clone()
            };
            (name, money(v.cents()), class)
        })
        .collect();
    // Before the close the settle-up is what closing now would do: the kitty shared out by
    // its rule, never "pays KITTY" for a kitty that closing would empty.
    let preview = fold.close_preview();
    let preview_postings = preview.as_ref().map_or(&[][..], |(_, p)| p.as_slice());
    let transfers = match &preview {
        Some((balances, _)) => {
            let open: Vec<_> = balances
                .as_map()
                .iter()
                .map(|(k, v)| (k.clone(), *v))
                .collect();
            fewest_transfers_preferring(&open, &fold.engine().settle_pairs())
        }
        None => loaded.ledger.settlement.clone(),
    };
    let currency = loaded.doc.currency.as_str();
    let name = |account: &str| {
        if account == KITTY {
            "Kitty".to_string()
        } else {
            account.to_string()
        }
    };
    let settlement: Vec<TransferView> = transfers
        .into_iter()
        .map(|t| TransferView {
            from: name(&t.from),
            to: name(&t.to),
            amount: with_currency(&t.amount.to_string(), currency),
            summary: [&t.from, &t.to]
                .into_iter()
                .map(|a| {
                    (
                        name(a),
                        model::money_summary(fold, a, preview_postings, currency),
                    )
                })
                .collect(),
            why: format!(
                "{}; {}",
                history_of(loaded, &t.from),
                history_of(loaded, &t.to)
            ),
            transfer: t,
        })
        .collect();
    let settlement_text = settlement
        .iter()
        .map(|t| format!("{} pays {} {}", t.from, t.to, t.amount))
        .collect::<Vec<_>>()
        .join("\n");
    Ok(SheetPage {
        id: loaded.id,
        offers_links: false,
        game_name: game.name.to_string(),
        rules: game.rules.to_string(),
        created_at: loaded.created_at.clone(),
        created_words: time_words(&loaded.created_at),
        agreements: fold.engine().agreements_summary(&loaded.doc.currency),
        sheet,
        hand_form,
        correction_form,
        correcting: correcting.map(|n| format!("hand {n}")).unwrap_or_default(),
        expected_events: loaded.doc.events.len(),
        undo,
        can_write,
        balances,
        settlement,
        settlement_text,
        closed: loaded.closed(),
        unfinished: fold.engine().unfinished(),
        close_effect: money_views(preview_postings)
            .into_iter()
            .map(|v| MoneyView {
                amount: with_currency(&v.amount, currency),
                ..v
            })
            .collect(),
        payments: if can_write {
            fold.rows()
                .iter()
                .filter(|r| r.kind == "payment" && !r.struck())
                .filter_map(|r| {
                    Some(PaymentView {
                        event: r.index?,
                        words: r.explanation.clone(),
                    })
                })
                .collect()
        } else {
            Vec::new()
        },
        error,
        next_dealer: loaded.next_dealer.clone().filter(|_| !loaded.closed()),
        standings: standings(loaded),
    })
}

/// The balances from the player most ahead down, the kitty last, each amount with its
/// currency ("−$0.70"): who is up, at a glance on a watcher's phone.
fn standings(loaded: &Loaded) -> Vec<(String, String, &'static str)> {
    let mut rows: Vec<(&String, i64)> = loaded
        .ledger
        .balances
        .iter()
        .map(|(k, v)| (k, v.cents()))
        .collect();
    // The kitty last, then the largest balance first; equal balances keep seat-name order.
    rows.sort_by_key(|(k, cents)| (k.as_str() == KITTY, std::cmp::Reverse(*cents)));
    rows.into_iter()
        .map(|(k, cents)| {
            let class = match cents.signum() {
                1 => "plus",
                -1 => "minus",
                _ => "",
            };
            let name = if k == KITTY { "Kitty" } else { k.as_str() };
            (
                name.to_string(),
                with_currency(&money(cents), &loaded.doc.currency),
                class,
            )
        })
        .collect()
}

/// The hand event `values` asks to correct (`correct_event`), when it is a hand that stands.
fn correct_event_of(loaded: &Loaded, values: &HashMap<String, String>) -> Option<usize> {
    let fold = &loaded.fold;
    values
        .get("correct_event")
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&i| {
            fold.standing_event(i)
                .is_some_and(|e| e.get("type").and_then(|t| t.as_str()) == Some("hand"))
        })
}

/// The spec `recorded` (the form's values: the names the session records) with the labels
/// and note of `shown` (the same form worked out from the renamed copy), list by list and
/// choice by choice; a list whose shape differs keeps its recorded labels.
fn relabelled(recorded: HandFormSpec, shown: HandFormSpec) -> HandFormSpec {
    let lists = recorded
        .lists
        .into_iter()
        .map(|(name, choices)| {
            let labels = shown
                .lists
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, l)| l)
                .filter(|l| l.len() == choices.len());
            let choices = match labels {
                Some(labels) => choices
                    .into_iter()
                    .zip(labels)
                    .map(|(c, l)| Choice {
                        label: l.label.clone(),
                        ..c
                    })
                    .collect(),
                None => choices,
            };
            (name, choices)
        })
        .collect();
    HandFormSpec {
        lists,
        note: shown.note,
        ..recorded
    }
}

/// The hand form and the correction form (empty when the sheet is closed to the viewer, or
/// no correction is open) of `loaded`: `values` after a refusal, `error_field` the field it
/// names. Under `shown` (a renamed session) every name a player reads is the name shown
/// now, while every value the forms send is the recorded name. Errors: a template failure.
fn hand_forms(
    loaded: &Loaded,
    values: &HashMap<String, String>,
    error_field: Option<String>,
    open: bool,
    shown: Option<&crate::history::names::Shown>,
) -> Result<(String, String), AppError> {
    let fold = &loaded.fold;
    let game = fold.game();
    let registration = registry::find(game.id)
        .ok_or_else(|| AppError::Internal(format!("{} is not registered", game.id)))?;
    let spec = || {
        let recorded = fold.engine().hand_form(fold.table());
        match shown {
            Some(s) => relabelled(recorded, s.fold.engine().hand_form(s.fold.table())),
            None => recorded,
        }
    };
    let form = |values: HashMap<String, String>, error_field: Option<String>| {
        let mut values = values;
        if !values.contains_key("dealer")
            && let Some(next) = loaded.next_dealer.clone()
        {
            values.insert("dealer".into(), next);
        }
        let data = HandFormData {
            session_id: loaded.id,
            seated: loaded.seated.clone(),
            expected_events: loaded.doc.events.len(),
            values,
            error_field,
            spec: spec(),
            names: shown.map(|s| s.names.clone()).unwrap_or_default(),
        };
        (registration.render_hand_form)(&data).map_err(|e| AppError::Internal(e.to_string()))
    };
    match (open, correct_event_of(loaded, values)) {
        (false, _) => Ok((String::new(), String::new())),
        (true, Some(index)) => {
            let mut filled = fold
                .standing_event(index)
                .map(form_values)
                .unwrap_or_default();
            // What was submitted (after a refusal) wins over the stored version.
            filled.extend(values.iter().map(|(k, v)| (k.clone(), v.clone())));
            Ok((form(HashMap::new(), None)?, form(filled, error_field)?))
        }
        (true, None) => Ok((form(values.clone(), error_field)?, String::new())),
    }
}

impl SheetPage {
    /// The page with the club's renamed or merged players under the names the club knows
    /// them by now ([`crate::history::names`]): every line, balance and settle-up comes from
    /// `shown`, the renamed copy of `loaded`; the forms (the hand form, a correction, the
    /// table changes, "Mark paid") *label* every player with the name shown now while the
    /// *values* they send stay the names the players sat under, which the session records.
    /// The page as it is when `shown` is `None`. Errors: a template failure (internal).
    pub fn shown_as(
        self,
        loaded: &Loaded,
        shown: Option<&crate::history::names::Shown>,
        values: &HashMap<String, String>,
    ) -> Result<SheetPage, AppError> {
        let Some(shown) = shown else { return Ok(self) };
        let mut copy = loaded.clone();
        copy.ledger = crate::format::ledger(&shown.doc, &shown.fold);
        copy.doc = shown.doc.clone();
        copy.fold = shown.fold.clone();
        copy.seated = loaded
            .seated
            .iter()
            .map(|n| shown.name(n).to_string())
            .collect();
        copy.next_dealer = loaded
            .next_dealer
            .as_deref()
            .map(|n| shown.name(n).to_string());
        let error = self.error.as_ref().map(|e| PageError {
            field: e.field.clone(),
            message: e.message.clone(),
            rule: e.rule.clone(),
        });
        let page = sheet_page(&copy, values, error, self.can_write)?;
        let settlement = page
            .settlement
            .into_iter()
            .map(|mut v| {
                v.transfer.from = shown.recorded(&v.transfer.from).to_string();
                v.transfer.to = shown.recorded(&v.transfer.to).to_string();
                v
            })
            .collect();
        let open = !loaded.closed() && self.can_write;
        let error_field = self.error.as_ref().and_then(|e| e.field.clone());
        let (hand_form, correction_form) =
            hand_forms(loaded, values, error_field, open, Some(shown))?;
        Ok(SheetPage {
            offers_links: self.offers_links,
            hand_form,
            correction_form,
            settlement,
            ..page
        })
    }
}
