//! The sheet of a club session under its players' current names ([`crate::history::names`]),
//! from the whole session or the cached states: the same page either way.

use std::collections::{BTreeMap, HashMap};

use super::{PageError, SheetPage, Showing, hand_forms, sheet_page};
use crate::error::AppError;
use crate::rules::{Engine, Table};
use crate::service::{Loaded, Renaming};

/// What a renamed session's forms label players with: the renamed engine, seating and names.
#[derive(Clone, Copy)]
pub(super) struct Relabel<'a> {
    /// The engine of the renamed state.
    pub engine: &'a dyn Engine,
    /// Its seating.
    pub table: &'a Table,
    /// Recorded name → display name, the session's renamed names only.
    pub names: &'a BTreeMap<String, String>,
}

impl SheetPage {
    /// The page under current names: lines, balances and settle-up from `shown`; forms *label*
    /// players by current names but send the recorded ones. As is when `shown` is `None`.
    /// Errors: a template failure.
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
        let all = values.contains_key("all");
        let relabel = Relabel {
            engine: shown.fold.engine(),
            table: shown.fold.table(),
            names: &shown.names,
        };
        self.relabelled(
            &Showing::of_loaded(&copy, all),
            &Showing::of_loaded(loaded, all),
            relabel,
            values,
        )
    }

    /// [`SheetPage::shown_as`]'s default page from the cached states. Errors: a template
    /// failure.
    pub fn shown_as_cached(
        self,
        renaming: &Renaming,
        values: &HashMap<String, String>,
    ) -> Result<SheetPage, AppError> {
        let Renaming::Shown {
            glance,
            renamed,
            names,
        } = renaming
        else {
            return Ok(self);
        };
        let relabel = Relabel {
            engine: renamed.tip.engine(),
            table: renamed.tip.table(),
            names,
        };
        self.relabelled(
            &Showing::of_glance(renamed),
            &Showing::of_glance(glance),
            relabel,
            values,
        )
    }

    /// `shown`'s page with `recorded`'s forms labelled by `relabel`. Errors: a template failure.
    fn relabelled(
        self,
        shown: &Showing<'_>,
        recorded: &Showing<'_>,
        relabel: Relabel<'_>,
        values: &HashMap<String, String>,
    ) -> Result<SheetPage, AppError> {
        let error = self.error.as_ref().map(|e| PageError {
            field: e.field.clone(),
            message: e.message.clone(),
            rule: e.rule.clone(),
        });
        let page = sheet_page(shown, values, error, self.can_write)?;
        let recorded_name = |name: &str| {
            relabel
                .names
                .iter()
                .find(|(_, s)| s.as_str() == name)
                .map_or(name, |(r, _)| r.as_str())
                .to_string()
        };
        let settlement = page
            .settlement
            .into_iter()
            .map(|mut v| {
                v.transfer.from = recorded_name(&v.transfer.from);
                v.transfer.to = recorded_name(&v.transfer.to);
                v
            })
            .collect();
        let open = !recorded.closed && self.can_write;
        let error_field = self.error.as_ref().and_then(|e| e.field.clone());
        let (hand_form, correction_form) =
            hand_forms(recorded, values, error_field, open, Some(relabel))?;
        Ok(SheetPage {
            offers_links: self.offers_links,
            hand_form,
            correction_form,
            settlement,
            ..page
        })
    }
}
