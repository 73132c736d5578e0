//! The score-sheet page, the same for every game: the agreements, the sheet built by
//! [`crate::session::sheet`], the game's own hand form (from [`crate::registry`]), a
//! correction form, the balances and the settle-up.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use askama::Template;
use askama_web::WebTemplate;
use chrono::{DateTime, Utc};

use super::PageError;
use crate::error::AppError;
use crate::ids::SessionId;
use crate::ledger::settle_up::Transfer;
use crate::ledger::{Balances, KITTY, Posting};
// An engine's words carry no currency (the "unfinished" note); the page adds it.
use crate::money::amounts_with_currency;
use crate::registry::{self, HandFormData};
use crate::rules::GameInfo;
use crate::rules::game::{Choice, HandFormSpec, form_values};
use crate::service::{Glance, Loaded};
use crate::session::sheet::{self as model, Context, MoneyView, SheetView, Source, money_views};
use crate::session::why::{Summaries, standing_amounts};
use crate::session::window::{SHEET_LINES, StandingPayment, standing_payments};
use crate::session::{EventKind, Fold};
use crate::store::time::rfc3339;

mod night;
mod renamed;
mod settle;
pub use night::{NightOnSheet, night_on_sheet};
use renamed::Relabel;
use settle::settle_up;

/// The score-sheet page.
#[derive(Template, WebTemplate)]
#[template(path = "sessions/sheet.html")]
pub struct SheetPage {
    id: SessionId,
    /// The viewer holds the write link of this club-less session: link to the page showing them.
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
    /// Who deals next, for a watcher (`None` when closed or dealer-less).
    next_dealer: Option<String>,
    /// Who is up, for a watcher: `(name, amount with currency, class)`, most ahead first,
    /// kitty last.
    standings: Vec<(String, String, &'static str)>,
    /// The night this session is in: its settle-up replaces the session's own.
    night: Option<NightOnSheet>,
}

impl SheetPage {
    /// The page of a session in night `night` (or in none).
    pub fn in_night(self, night: Option<NightOnSheet>) -> SheetPage {
        SheetPage { night, ..self }
    }

    /// Whether a form has card fields (poker's board and hole cards): then the page loads
    /// the card picker's script.
    fn shows_card_picker(&self) -> bool {
        const CARDS: &str = "data-cards=";
        self.hand_form.contains(CARDS) || self.correction_form.contains(CARDS)
    }

    /// Whether a form shows the meld calculator (only then the page loads its script).
    fn shows_meld_calculator(&self) -> bool {
        const CALCULATOR: &str = "class=\"meld-calc\"";
        self.hand_form.contains(CALCULATOR) || self.correction_form.contains(CALCULATOR)
    }
}

/// A payment that stands, which a writer may void (a mis-tapped "Mark paid").
pub struct PaymentView {
    /// The payment's event index, for the void.
    pub event: usize,
    /// "Bob paid Ann 0.40".
    pub words: String,
}

/// The stale-phone message in the sheet's hand numbers: what changed since `seen` events
/// ("hand 12 was just entered by another device").
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
        _ => match since.last().map(|r| r.kind) {
            Some(EventKind::Correction) => "a hand was just corrected".to_string(),
            Some(EventKind::Void) => "a hand was just undone".to_string(),
            Some(EventKind::Close) => "the sitting was just closed".to_string(),
            Some(EventKind::Reopen) => "the sitting was just reopened".to_string(),
            Some(EventKind::Payment) => "a payment was just marked".to_string(),
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
    /// The page explaining both balances event by event (read whole only when opened).
    pub why_link: String,
}

/// "2026-05-01 20:15 UTC"; the page's script shows it in the reader's zone.
pub fn time_words(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d %H:%M UTC").to_string()
}

fn recorded_texts<'a>(
    recorded: impl Iterator<Item = (usize, &'a DateTime<Utc>)>,
) -> BTreeMap<usize, String> {
    recorded.map(|(index, at)| (index, rfc3339(*at))).collect()
}

/// Where an account's balance came from, event by event: "Ann −$0.70: opening ante −$0.10,
/// hand 1 −$0.40, …". Only what stands ([`standing_amounts`]), so the parts add up.
pub fn history_of(fold: &Fold, account: &str, currency: &str) -> String {
    let money = |cents: i64| crate::money::Money::from_cents(cents).shown_signed(currency);
    let mut parts = Vec::new();
    for (row, cents) in standing_amounts(fold, account) {
        let label = match (row.kind, row.hand_number) {
            (EventKind::OpeningAnte, _) => "opening ante".to_string(),
            (_, Some(n)) if row.struck() => format!("hand {n} (corrected)"),
            (_, Some(n)) => format!("hand {n}"),
            (kind, _) => kind.words(),
        };
        if cents != 0 {
            parts.push(format!("{label} {}", money(cents)));
        }
    }
    let name = if account == KITTY { "Kitty" } else { account };
    let total = fold.balances().get(account).cents();
    format!("{name} {}: {}", money(total), parts.join(", "))
}

/// Lines a watcher's phone shows unless asked for all: the latest hands fit its first
/// screen under the standings (`tests/browser/fit.rs`, 390 px).
pub const WATCHER_LINES: usize = 2;

/// Lines a writer's phone shows unless asked for all ("Show the N earlier lines"); every
/// line is some forty elements, slow for a phone to lay out (docs/at-the-table.md).
pub const WRITER_LINES: usize = 12;

/// What a sheet page is built from: the whole session replayed ([`Showing::of_loaded`],
/// every line or a correction), or the cached state ([`Showing::of_glance`], the latest
/// lines, at a cost that does not grow with the session).
pub struct Showing<'a> {
    id: SessionId,
    currency: &'a str,
    created_at: DateTime<Utc>,
    events: usize,
    closed: bool,
    seated: &'a [String],
    next_dealer: Option<String>,
    /// Each event's time ([`rfc3339`]), by 0-based index.
    recorded: BTreeMap<usize, String>,
    source: Source<'a>,
    game: &'static GameInfo,
    /// The number of the last hand that stands ("Undo hand 12").
    last_hand: Option<usize>,
    /// What closing now would do ([`crate::session::Fold::close_preview`]).
    preview: Option<(Balances, Vec<Posting>)>,
    summaries: Cow<'a, Summaries>,
    payments: Cow<'a, [StandingPayment]>,
    /// The whole fold, when read: what a correction form starts from.
    fold: Option<&'a Fold>,
}

impl<'a> Showing<'a> {
    /// The page of the whole session: every line when `all`, else the latest [`SHEET_LINES`].
    pub fn of_loaded(loaded: &'a Loaded, all: bool) -> Showing<'a> {
        let fold = &loaded.fold;
        let recorded = recorded_texts(loaded.rows.iter().filter_map(|r| {
            let index = usize::try_from(r.seq).ok()?.checked_sub(1)?;
            Some((index, &r.recorded_at))
        }));
        Showing {
            id: loaded.id,
            currency: &loaded.doc.currency,
            created_at: loaded.created_at,
            events: loaded.doc.events.len(),
            closed: loaded.closed(),
            seated: &loaded.seated,
            next_dealer: loaded.next_dealer.clone(),
            recorded,
            source: Source::of_fold(fold, (!all).then_some(SHEET_LINES)),
            game: fold.game(),
            last_hand: fold.last_standing_hand().and_then(|i| fold.hand_number(i)),
            preview: fold.close_preview(),
            summaries: Cow::Owned(Summaries::of(fold)),
            payments: Cow::Owned(standing_payments(fold.rows())),
            fold: Some(fold),
        }
    }

    /// The page of the cached state `glance`: its latest lines.
    pub fn of_glance(glance: &'a Glance) -> Showing<'a> {
        let tip = &glance.tip;
        Showing {
            id: glance.id,
            currency: &glance.currency,
            created_at: glance.created_at,
            events: tip.events(),
            closed: tip.closed_at().is_some(),
            seated: tip.table().seated(),
            next_dealer: tip.next_dealer(),
            recorded: recorded_texts(glance.recorded.iter().map(|(i, at)| (*i, at))),
            source: Source::of_tip(tip),
            game: tip.game(),
            last_hand: tip.last_hand(),
            preview: tip.close_preview(),
            summaries: Cow::Borrowed(tip.window().summaries()),
            payments: Cow::Borrowed(tip.window().payments()),
            fold: None,
        }
    }
}

impl SheetPage {
    /// Offers the session's links page when the viewer came by its write link and may write.
    pub fn offering_links(self, holds_link: bool) -> SheetPage {
        SheetPage {
            offers_links: holds_link && self.can_write,
            ..self
        }
    }
}

/// The page `showing` shows, with a refusal's `values` and `error` (or `correct_event` to
/// open a correction). Errors: a template failure.
pub fn sheet_page(
    showing: &Showing<'_>,
    values: &HashMap<String, String>,
    error: Option<PageError>,
    can_write: bool,
) -> Result<SheetPage, AppError> {
    let shown = shown_source(showing, values, can_write);
    let source = &shown;
    let engine = source.engine();
    let error_field = error.as_ref().and_then(|e| e.field.clone());
    let open = !showing.closed && can_write;
    let currency = showing.currency;
    let sheet = model::sheet(
        source,
        &Context {
            session_id: showing.id.0,
            correctable: open,
            recorded: &showing.recorded,
            currency,
        },
    );
    let correcting =
        correct_event_of(showing, values).and_then(|i| showing.fold.and_then(|f| f.hand_number(i)));
    let (hand_form, correction_form) = hand_forms(showing, values, error_field, open, None)?;
    let balances = balance_views(source.balances(), currency);
    let preview_postings = showing
        .preview
        .as_ref()
        .map_or(&[][..], |(_, p)| p.as_slice());
    let pairs = engine.settle_pairs();
    let (settlement, settlement_text) =
        settle_up(showing, source.balances(), &pairs, preview_postings);
    Ok(SheetPage {
        id: showing.id,
        offers_links: false,
        game_name: engine
            .session_name()
            .unwrap_or_else(|| showing.game.name.to_string()),
        rules: showing.game.rules.to_string(),
        created_at: rfc3339(showing.created_at),
        created_words: time_words(showing.created_at),
        agreements: engine.agreements_summary(currency),
        sheet,
        hand_form,
        correction_form,
        correcting: correcting.map(|n| format!("hand {n}")).unwrap_or_default(),
        expected_events: showing.events,
        undo: showing
            .last_hand
            .filter(|_| open)
            .map(|n| format!("hand {n}")),
        can_write,
        balances,
        settlement,
        settlement_text,
        closed: showing.closed,
        unfinished: engine
            .unfinished()
            .map(|t| amounts_with_currency(&t, currency)),
        close_effect: money_views(preview_postings, currency),
        payments: payment_views(showing, can_write),
        error,
        night: None,
        next_dealer: showing.next_dealer.clone().filter(|_| !showing.closed),
        standings: standings(source.balances(), currency),
    })
}

/// The rows shown: [`WRITER_LINES`] for a writer, the [`WATCHER_LINES`] latest that stand
/// for a watcher, all with `?all=1`.
fn shown_source<'a>(
    showing: &Showing<'a>,
    values: &HashMap<String, String>,
    can_write: bool,
) -> Source<'a> {
    let mut shown = showing.source.clone();
    match (values.contains_key("all"), can_write) {
        (true, _) => {}
        (false, true) => shown.keep_last(WRITER_LINES),
        // A watcher's few lines are the hands as they stand, never an undo or a
        // correction's predecessor with no hand among them.
        (false, false) => shown.keep_last_standing(WATCHER_LINES),
    }
    shown
}

/// Every balance as the page lists it: `(name, amount with currency, class)`.
fn balance_views(balances: &Balances, currency: &str) -> Vec<(String, String, &'static str)> {
    balances
        .as_map()
        .iter()
        .map(|(k, v)| (name(k), v.shown(currency), class_of(v.cents())))
        .collect()
}

/// The payments that stand, which a writer (`can_write`) may void; none for a watcher.
fn payment_views(showing: &Showing<'_>, can_write: bool) -> Vec<PaymentView> {
    match can_write {
        true => showing
            .payments
            .iter()
            .map(|p| PaymentView {
                event: p.event,
                words: p.words.clone(),
            })
            .collect(),
        false => Vec::new(),
    }
}

/// Balances most ahead first, kitty last, with currency ("−$0.70").
fn standings(balances: &Balances, currency: &str) -> Vec<(String, String, &'static str)> {
    let mut rows: Vec<(&String, i64)> = balances
        .as_map()
        .iter()
        .map(|(k, v)| (k, v.cents()))
        .collect();
    rows.sort_by_key(|(k, cents)| (k.as_str() == KITTY, std::cmp::Reverse(*cents)));
    rows.into_iter()
        .map(|(k, cents)| {
            (
                name(k),
                crate::money::Money::from_cents(cents).shown(currency),
                class_of(cents),
            )
        })
        .collect()
}

/// A player's name as a page shows it: "Kitty" for the kitty's account.
fn name(account: &str) -> String {
    match account == KITTY {
        true => "Kitty".to_string(),
        false => account.to_string(),
    }
}

/// `"plus"`, `"minus"` or empty, by the sign of `cents`.
fn class_of(cents: i64) -> &'static str {
    match cents.signum() {
        1 => "plus",
        -1 => "minus",
        _ => "",
    }
}

/// The hand event `values` asks to correct (`correct_event`), when it is a hand that stands.
fn correct_event_of(showing: &Showing<'_>, values: &HashMap<String, String>) -> Option<usize> {
    let fold = showing.fold?;
    values
        .get("correct_event")
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&i| fold.standing_kind(i) == Some(EventKind::Hand))
}

/// `recorded`'s values (recorded names) with `shown`'s labels (renamed names); a list whose
/// shape differs keeps its recorded labels.
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

/// The hand and correction forms of `showing` (empty when closed to the viewer). Under
/// `shown` labels read the shown names while values send the recorded ones. Errors: a
/// template failure.
fn hand_forms(
    showing: &Showing<'_>,
    values: &HashMap<String, String>,
    error_field: Option<String>,
    open: bool,
    shown: Option<Relabel<'_>>,
) -> Result<(String, String), AppError> {
    let game = showing.game;
    let registration = registry::find(game.id)
        .ok_or_else(|| AppError::Internal(format!("{} is not registered", game.id)))?;
    let spec = || {
        let recorded = showing.source.engine().hand_form(showing.source.table());
        match shown {
            Some(s) => relabelled(recorded, s.engine.hand_form(s.table)),
            None => recorded,
        }
    };
    let form = |values: HashMap<String, String>,
                error_field: Option<String>,
                entered: HashMap<String, String>| {
        let mut values = values;
        if !values.contains_key("dealer")
            && let Some(next) = showing.next_dealer.clone()
        {
            values.insert("dealer".into(), next);
        }
        let data = HandFormData {
            session_id: showing.id,
            seated: showing.seated.to_vec(),
            expected_events: showing.events,
            values,
            error_field,
            spec: spec(),
            names: shown.map(|s| s.names.clone()).unwrap_or_default(),
            entered,
            currency: showing.currency.to_string(),
        };
        (registration.render_hand_form)(&data).map_err(|e| AppError::Internal(e.to_string()))
    };
    match (open, correct_event_of(showing, values)) {
        (false, _) => Ok((String::new(), String::new())),
        (true, Some(index)) => {
            let entered = showing
                .fold
                .and_then(|f| f.standing_event(index))
                .map(|e| form_values(&e))
                .unwrap_or_default();
            // What was submitted (after a refusal) wins over the stored version.
            let mut filled = entered.clone();
            filled.extend(values.iter().map(|(k, v)| (k.clone(), v.clone())));
            let blank = form(HashMap::new(), None, HashMap::new())?;
            Ok((blank, form(filled, error_field, entered)?))
        }
        (true, None) => Ok((
            form(values.clone(), error_field, HashMap::new())?,
            String::new(),
        )),
    }
}
