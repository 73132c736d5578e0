//! A player's taps on the next-hand form, counted as a player counts them: a chip or a
//! button (a quick value, a stepper's + or −, a tick, Enter) is one tap, a menu (select) is
//! two (open, pick), a typed field is one (the tap that focuses it) plus one per character
//! typed. The dealer the sheet proposes is kept (no tap).

use std::time::Duration;

use serde_json::Value;
use thirtyfour::prelude::*;

use super::browser::{
    Browser, assert_landed, choose, page_fetch, section_screenshot, select_option, submit, wait_for,
};

/// A player's gestures on the next-hand form, counted.
pub struct Taps<'a> {
    pub phone: &'a WebDriver,
    pub count: usize,
}

impl<'a> Taps<'a> {
    /// No taps yet on `phone`'s form.
    pub fn new(phone: &'a WebDriver) -> Self {
        Taps { phone, count: 0 }
    }

    /// Picks `value` for `name`: its chip (1 tap), or its menu (2 taps) where the form still
    /// has one.
    pub async fn pick(&mut self, name: &str, value: &str) {
        let menu = format!("#next select[name='{name}']");
        if select_option(self.phone, &menu, value).await {
            self.count += 2;
        } else {
            choose(self.phone, name, value).await;
            self.count += 1;
        }
    }

    /// Puts the number `text` in the field `name`: its quick value (1 tap) when the form
    /// offers one, else typed (1 + its characters).
    pub async fn number(&mut self, name: &str, text: &str) {
        let quick = self
            .phone
            .find_all(By::Css(format!(
                "#next button.quick[data-for='{name}'][value='{text}']"
            )))
            .await
            .unwrap();
        if let Some(button) = quick.first() {
            crate::common::browser::tap(self.phone, button)
                .await
                .unwrap();
            self.count += 1;
        } else {
            self.typed(name, text).await;
        }
        assert_eq!(shown(self.phone, name).await, text, "{name} shows {text}");
    }

    /// Taps the field `name` and types `text` into it: 1 + its characters.
    pub async fn typed(&mut self, name: &str, text: &str) {
        let field = self
            .phone
            .find(By::Css(format!(
                "#next form.hand-form input[name='{name}']"
            )))
            .await
            .unwrap();
        // WebDriver focuses the field as the player's tap does.
        field.clear().await.unwrap();
        field.send_keys(text).await.unwrap();
        assert_eq!(
            shown(self.phone, name).await,
            text,
            "{name} shows what was typed"
        );
        self.count += 1 + text.chars().count();
    }

    /// Taps the tick (checkbox) `name` by its label, which is what a finger taps (a tick
    /// chip's box itself is not shown).
    pub async fn tick(&mut self, name: &str) {
        let label = self
            .phone
            .find(By::Css(format!(
                "#next label:has(> input[type=checkbox][name='{name}'])"
            )))
            .await
            .unwrap();
        crate::common::browser::tap(self.phone, &label)
            .await
            .unwrap();
        self.count += 1;
    }

    /// Taps the button `css` finds.
    pub async fn button(&mut self, css: &str) {
        submit(self.phone, css).await;
        self.count += 1;
    }

    /// Taps a stepper's + (`more`) or − beside the field `name`.
    pub async fn step(&mut self, name: &str, more: bool) {
        let nth = if more { "last-child" } else { "first-child" };
        self.button(&format!(
            "#next input[name='{name}'] ~ button.step:{nth}, #next button.step:{nth}:has(~ input[name='{name}'])"
        ))
        .await;
    }

    /// Taps Enter (the form's first submit button) and waits until the entry has landed on
    /// the latest row; a refusal fails with its words.
    pub async fn enter(&mut self, game: &str) {
        self.phone
            .execute("window.before = true;", Vec::new())
            .await
            .unwrap();
        self.button("#next form.hand-form button[type=submit]")
            .await;
        for _ in 0..100 {
            let refusal = self
                .phone
                .execute(
                    "var e = document.getElementById('error');\
                     return !window.before && e ? e.textContent : null;",
                    Vec::new(),
                )
                .await
                .map(|r| r.json().clone())
                .unwrap_or(Value::Null);
            if !refusal.is_null() {
                section_screenshot(self.phone, "next", &format!("{game}-refused-entry-390.png"))
                    .await;
                panic!("{game}: refused: {refusal}");
            }
            if self.phone.current_url().await.unwrap().fragment() == Some("latest") {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_landed(self.phone, game).await;
    }
}

/// The value the field `name` of the next-hand form shows.
pub async fn shown(phone: &WebDriver, name: &str) -> String {
    phone
        .find(By::Css(format!("#next input[name='{name}']")))
        .await
        .unwrap()
        .value()
        .await
        .unwrap()
        .unwrap_or_default()
}

/// The session's events as stored (its session document).
pub async fn events(phone: &WebDriver, id: i64) -> Vec<Value> {
    let (status, text) = page_fetch(phone, &format!("/api/v1/sessions/{id}/export")).await;
    assert_eq!(status, 200, "{text}");
    let doc: Value = serde_json::from_str(&text).unwrap();
    doc["events"].as_array().unwrap().clone()
}

/// The session's ledger document (scores, checks, balances) as the service computes it.
pub async fn ledger(phone: &WebDriver, id: i64) -> Value {
    let (status, text) = page_fetch(phone, &format!("/api/v1/sessions/{id}/ledger")).await;
    assert_eq!(status, 200, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// The last event as stored, without what the form adds on its own (the dealer).
pub async fn last_hand(phone: &WebDriver, id: i64) -> Value {
    let mut event = events(phone, id).await.pop().unwrap();
    event.as_object_mut().unwrap().remove("dealer");
    event
}

/// Imports the session document `doc` and opens its sheet on `phone`; its id.
pub async fn open_session(browser: &Browser, phone: &WebDriver, doc: Value) -> i64 {
    let doc: scorekeeper::format::SessionDoc = serde_json::from_value(doc).unwrap();
    let id = scorekeeper::service::import(&browser.store, &doc, None)
        .await
        .unwrap();
    phone
        .goto(format!("{}/sessions/{id}", browser.base))
        .await
        .unwrap();
    wait_for(phone, "Score sheet", Duration::from_secs(5)).await;
    id.0
}
