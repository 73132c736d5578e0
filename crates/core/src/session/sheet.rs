//! One score-sheet view-model for every game, from the engine's [`Layout`] and the fold's
//! rows: the page derives nothing. Times come in as stored (RFC 3339, UTC).

use std::collections::BTreeMap;

mod now;
mod source;
mod steps;
mod views;

pub use super::why::money_summary;
pub use source::Source;
pub use steps::step_view;
pub use views::{
    CellView, Changed, Context, EndView, Group, LineView, MoneyView, ScoreNow, SheetView, StepView,
};

use super::{EventKind, Row, ShownEnd};
use crate::ledger::Posting;
use crate::money::Money;
use crate::rules::{Cell, Column, Detail, GameEnd, Layout, SheetLine, Tally};

/// Points or checks as a sheet writes them ("−350", "1,020").
pub use crate::rules::sheet::points;

fn signed_points(n: i64) -> String {
    match n.signum() {
        1 => format!("+{}", points(n)),
        -1 => points(n),
        _ => "0".into(),
    }
}

fn class_of(n: i64) -> &'static str {
    match n.signum() {
        1 => "plus",
        -1 => "minus",
        _ => "",
    }
}

fn account_label(account: &str) -> String {
    if account == crate::ledger::KITTY {
        "Kitty".into()
    } else {
        account.to_string()
    }
}

fn groups(layout: &Layout) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for c in &layout.columns {
        match groups.last_mut() {
            Some(g) if g.account == c.account => g.tallies.push(c.tally),
            _ => groups.push(Group {
                account: c.account.clone(),
                label: c.label.clone(),
                short: c.label.clone(),
                members: c.members.clone(),
                tallies: vec![c.tally],
            }),
        }
    }
    groups
}

/// The most columns beside a hand cell on a 390 px phone (`tests/browser/fit.rs`).
pub const WIDE: usize = 6;

/// The most money columns beside a hand cell on a 390 px phone, kitty aside (cells are wider).
pub const WIDE_MONEY: usize = 4;

/// Whether `columns` are too many for a phone: the hand's words then get their own row.
fn too_wide(columns: &[Column]) -> bool {
    // The kitty's column holds small sums; the players' columns are what grow.
    let money = columns
        .iter()
        .filter(|c| c.tally == Tally::Money && c.account != crate::ledger::KITTY)
        .count();
    columns.len() > WIDE || money > WIDE_MONEY
}

/// The longest head shown whole with `columns` columns on a 390 px phone
/// (`tests/browser/fit.rs`).
fn head_budget(columns: usize) -> usize {
    match columns {
        0..=3 => usize::MAX,
        4 => 6,
        _ => 5,
    }
}

/// Shortens long heads to their shortest unique start (3+ letters); returns the legend.
fn shorten_heads(groups: &mut [Group], columns: usize) -> Vec<(String, String)> {
    let budget = head_budget(columns);
    let labels: Vec<Vec<char>> = groups.iter().map(|g| g.label.chars().collect()).collect();
    let mut legend = Vec::new();
    for (i, g) in groups.iter_mut().enumerate() {
        let Some(mine) = labels.get(i) else { continue };
        if mine.len() <= budget {
            continue;
        }
        let mut len = 3.min(mine.len());
        while len < mine.len()
            && labels
                .iter()
                .enumerate()
                .any(|(j, other)| j != i && other.len() >= len && other[..len] == mine[..len])
        {
            len += 1;
        }
        g.short = mine[..len].iter().collect();
        legend.push((g.short.clone(), g.label.clone()));
    }
    legend
}

/// One cell: "+$0.20" added over "−$0.10" running, money in `currency`.
fn cell_view(account: &str, cell: Option<&Cell>, tally: Tally, currency: &str) -> CellView {
    let Some(c) = cell else {
        return CellView {
            account: account.to_string(),
            added: String::new(),
            running: String::new(),
            class: "",
            in_hole: false,
            bidder: false,
            tally,
        };
    };
    let text = |n: i64| match tally {
        Tally::Money => Money::from_cents(n).shown(currency),
        _ => points(n),
    };
    let added = |n: i64| match tally {
        Tally::Money if n == 0 => String::new(),
        Tally::Money => Money::from_cents(n).shown_signed(currency),
        _ => signed_points(n),
    };
    CellView {
        account: account.to_string(),
        added: c.added.map(added).unwrap_or_default(),
        running: c.running.map(text).unwrap_or_default(),
        class: c.added.map_or("", class_of),
        in_hole: c.in_hole,
        bidder: c.bidder,
        tally,
    }
}

fn cells(columns: &[Column], cells: &[Cell], currency: &str) -> Vec<CellView> {
    columns
        .iter()
        .map(|col| {
            let cell = cells
                .iter()
                .find(|c| c.account == col.account && c.tally == col.tally);
            cell_view(&col.account, cell, col.tally, currency)
        })
        .collect()
}

/// Money by account in first-posted order, zeros left out, in `currency` ("Ann +$0.30").
pub fn money_views(postings: &[Posting], currency: &str) -> Vec<MoneyView> {
    let mut by: Vec<(String, i64)> = Vec::new();
    for p in postings {
        match by.iter_mut().find(|(a, _)| *a == p.account) {
            Some((_, c)) => *c += p.amount.cents(),
            None => by.push((p.account.clone(), p.amount.cents())),
        }
    }
    by.into_iter()
        .filter(|(_, c)| *c != 0)
        .map(|(a, c)| MoneyView {
            account: account_label(&a),
            amount: Money::from_cents(c).shown_signed(currency),
            class: class_of(c),
        })
        .collect()
}

fn end_view(end: &ShownEnd, columns: &[Column], ctx: &Context<'_>) -> EndView {
    // The sheet shows whole rows only; a slimmed one would show its winner alone.
    let slimmed;
    let (e, payments) = match end.shown.as_deref() {
        Some((e, payments)) => (e, payments.as_slice()),
        None => {
            slimmed = GameEnd {
                winner: end.winner.clone(),
                at: None,
                how: String::new(),
                award: None,
                settlement: String::new(),
                fresh: Vec::new(),
            };
            (&slimmed, &[][..])
        }
    };
    let headline = match &e.winner {
        Some(w) => format!("{w} wins"),
        None => "a draw".to_string(),
    };
    let at = match (&e.winner, e.at) {
        (Some(_), Some(at)) => format!("at {}", points(at)),
        _ => String::new(),
    };
    let award = e
        .award
        .as_ref()
        .map(|a| {
            format!(
                "{} {} to {}: {}",
                signed_points(a.amount),
                a.tally.word(),
                a.to,
                a.what
            )
        })
        .unwrap_or_default();
    let changed = end
        .struck_by
        .map(|(by, still_over)| {
            let what = if still_over {
                "changed"
            } else {
                "no longer over"
            };
            changed_at(ctx, what, by)
        })
        .into_iter()
        .collect();
    EndView {
        number: end.number,
        headline,
        at,
        how: e.how.clone(),
        award,
        settlement: crate::money::amounts_with_currency(&e.settlement, ctx.currency),
        payments: money_views(payments, ctx.currency),
        struck: end.struck_by.is_some(),
        changed,
        fresh: cells(columns, &e.fresh, ctx.currency)
            .into_iter()
            .filter(|_| !e.fresh.is_empty())
            .collect(),
    }
}

fn changed_at(ctx: &Context<'_>, what: &'static str, index: usize) -> Changed {
    let at = ctx.recorded.get(&index).cloned().unwrap_or_default();
    Changed {
        what,
        words: at.replace('T', " ").replace('Z', " UTC"),
        at,
    }
}

/// The row's changes in times, never event numbers: "corrected 20:15", "reopened".
fn changed_words(row: &Row, ctx: &Context<'_>) -> Vec<Changed> {
    row.changed_by
        .iter()
        .map(|c| {
            let what = match (row.kind, c.void) {
                (EventKind::Close, _) => "reopened",
                (_, true) => "undone",
                (_, false) => "corrected",
            };
            changed_at(ctx, what, c.by)
        })
        .collect()
}

/// The page that corrects the hand a row shows: its own row, or its latest correction's.
fn correct_link(corrects: Option<usize>, ctx: &Context<'_>) -> Option<String> {
    let hand = corrects.filter(|_| ctx.correctable)?;
    Some(format!(
        "/sessions/{}?correct={hand}#correct",
        ctx.session_id
    ))
}

/// A line's words, explanation and steps with amounts in `currency` ("pot $1.80").
fn in_currency(view: &mut LineView, row: &Row, currency: &str) {
    let add = |text: &mut String| *text = crate::money::amounts_with_currency(text, currency);
    view.explanation = row.explanation.clone();
    view.steps = row.steps.iter().map(|s| step_view(s, currency)).collect();
    let marks = view.marks.iter_mut().map(|m| &mut m.text);
    let details = view.details.iter_mut().flatten().map(|d| &mut d.text);
    let steps = view
        .steps
        .iter_mut()
        .flat_map(|s| [&mut s.what, &mut s.gives]);
    let all = marks.chain(details).chain(steps);
    let words = [&mut view.title, &mut view.explanation].into_iter();
    words.chain(all).for_each(add);
}

fn line_view(line: &SheetLine, groups: &[Group], cells_: Vec<CellView>) -> LineView {
    let details = groups
        .iter()
        .map(|g| {
            let mut d: Vec<Detail> = line
                .details
                .iter()
                .filter(|d| d.account == g.account)
                .cloned()
                .collect();
            d.extend(
                line.awards
                    .iter()
                    .filter(|a| a.to == g.account && a.short.is_empty())
                    .map(|a| Detail {
                        account: a.to.clone(),
                        text: format!("{} {}", signed_points(a.amount), a.what),
                        tone: crate::rules::Tone::Good,
                    }),
            );
            d
        })
        .collect();
    LineView {
        number: String::new(),
        dealer: line.dealer.clone().unwrap_or_default(),
        contract: line.contract.clone(),
        title: line.title.clone().unwrap_or_default(),
        marks: line.marks.clone(),
        short_awards: line
            .awards
            .iter()
            .filter(|a| !a.short.is_empty())
            .cloned()
            .collect(),
        details,
        cells: cells_,
        money: Vec::new(),
        explanation: String::new(),
        steps: Vec::new(),
        rules: Vec::new(),
        struck: false,
        amends: false,
        changed: Vec::new(),
        correct_link: None,
        ends: Vec::new(),
    }
}

/// Builds the sheet of `source`.
pub fn sheet(source: &Source<'_>, ctx: &Context<'_>) -> SheetView {
    let engine = source.engine;
    let layout = engine.layout(source.table);
    let columns = &layout.columns;
    let mut groups = groups(&layout);
    let legend = shorten_heads(&mut groups, columns.len());
    let money_columns = columns.iter().any(|c| c.tally == Tally::Money);
    let mut running: BTreeMap<&str, i64> = source
        .running
        .iter()
        .map(|(a, c)| (a.as_str(), *c))
        .collect();
    let mut lines = Vec::new();
    for held in &source.rows {
        let money = money_columns.then_some(&mut running);
        if held.hidden {
            if let Some(running) = money {
                for col in columns.iter().filter(|c| c.tally == Tally::Money) {
                    *running.entry(col.account.as_str()).or_insert(0) +=
                        cents_of(held.row, &col.account);
                }
            }
            continue;
        }
        lines.push(row_line(
            held.row,
            held.corrects,
            columns,
            &groups,
            money,
            ctx,
        ));
    }
    let start = source.start_line.map(|l| {
        let c = cells(columns, &l.cells, ctx.currency);
        line_view(l, &groups, c)
    });
    let standing = engine.standing();
    let score_now = now::score_now(&groups, &standing, engine.low_leads());
    let outlook = engine.outlook(source.table, ctx.currency);
    let totals = totals(source, standing, columns, ctx.currency);
    let totals_label = if money_columns {
        "Balance".to_string()
    } else {
        format!("Game {} now", source.games_finished + 1)
    };
    let mut view = SheetView {
        tally_heads: groups.iter().any(|g| g.tallies.len() > 1),
        wide: too_wide(columns),
        width: if too_wide(columns) { 0 } else { 2 } + columns.len(),
        groups,
        start,
        lines,
        earlier: source.earlier,
        totals,
        totals_label,
        score_now,
        outlook,
        legend,
    };
    if engine.low_leads() {
        view.colour_points_as_losses();
    }
    view
}

/// The line of `row`; with money columns `running` (cents) moves past it.
fn row_line<'a>(
    row: &Row,
    corrects: Option<usize>,
    columns: &'a [Column],
    groups: &[Group],
    running: Option<&mut BTreeMap<&'a str, i64>>,
    ctx: &Context<'_>,
) -> LineView {
    let money_columns = running.is_some();
    let mut line_cells = if row.amends.is_some() {
        row.standing_after.clone()
    } else {
        row.line.cells.clone()
    };
    if let Some(running) = running {
        for col in columns.iter().filter(|c| c.tally == Tally::Money) {
            let added = cents_of(row, &col.account);
            let total = running.entry(col.account.as_str()).or_insert(0);
            *total += added;
            line_cells.push(Cell::added(&col.account, Tally::Money, added, *total));
        }
    }
    let line_cells = cells(columns, &line_cells, ctx.currency);
    let mut view = line_view(&row.line, groups, line_cells);
    view.number = row.hand_number.map(|n| n.to_string()).unwrap_or_default();
    in_currency(&mut view, row, ctx.currency);
    view.rules = row.rules.clone();
    view.struck = row.struck();
    view.amends = row.amends.is_some();
    view.changed = changed_words(row, ctx);
    view.correct_link = correct_link(corrects, ctx);
    view.ends = row
        .game_ends
        .iter()
        .map(|e| end_view(e, columns, ctx))
        .collect();
    let ends_pay = !row.game_ends.is_empty();
    if !money_columns && (!ends_pay || row.amends.is_some()) {
        view.money = money_views(&row.postings, ctx.currency);
    }
    view
}

/// What `row` posts to `account`, in cents.
fn cents_of(row: &Row, account: &str) -> i64 {
    row.postings
        .iter()
        .filter(|p| p.account == account)
        .map(|p| p.amount.cents())
        .sum()
}

/// The sheet's foot: where each column stands, money coloured by its sign.
fn totals(
    source: &Source<'_>,
    mut standing: Vec<Cell>,
    columns: &[Column],
    currency: &str,
) -> Vec<CellView> {
    for col in columns.iter().filter(|c| c.tally == Tally::Money) {
        let cents = source.balances.get(&col.account).cents();
        standing.push(Cell::running(&col.account, Tally::Money, cents));
    }
    cells(columns, &standing, currency)
        .into_iter()
        .map(|mut c| {
            if c.tally == Tally::Money {
                c.class = class_of(if c.running.starts_with('−') { -1 } else { 1 });
            }
            c
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(label: &str) -> Group {
        Group {
            account: label.into(),
            label: label.into(),
            short: label.into(),
            members: String::new(),
            tallies: vec![Tally::Points],
        }
    }

    #[test]
    fn wide_tables_shorten_long_heads_to_unique_starts_with_a_legend() {
        let names = ["Margaret", "Marcello", "Vincenzo", "Kitty", "Ma"];
        let mut groups: Vec<Group> = names.iter().map(|n| group(n)).collect();
        let legend = shorten_heads(&mut groups, 5);
        let shorts: Vec<&str> = groups.iter().map(|g| g.short.as_str()).collect();
        // "Mar" is shared by Margaret and Marcello, so both take four letters.
        assert_eq!(shorts, ["Marg", "Marc", "Vin", "Kitty", "Ma"]);
        assert_eq!(
            legend,
            [
                ("Marg".to_string(), "Margaret".to_string()),
                ("Marc".into(), "Marcello".into()),
                ("Vin".into(), "Vincenzo".into())
            ]
        );
        // Two players: every name in full.
        let mut two = vec![group("Bartholomew"), group("Guinevere")];
        assert!(shorten_heads(&mut two, 2).is_empty());
        assert_eq!(two[0].short, "Bartholomew");
    }
}
