//! A page read through CSS selectors (the `scraper` crate, html5ever's parser) instead of
//! raw fragments: an assertion names the element it means (`td.tally[data-account="NS"]`,
//! `select[name="dealer"] option[selected]`), so another attribute order, one more class
//! or a line break in the template does not break it, and a look-alike fragment elsewhere
//! on the page (a hint, a script) cannot pass it by accident.

use scraper::{ElementRef, Html, Selector};

/// `css` parsed; a test with a malformed selector stops and names it.
fn selector(css: &str) -> Selector {
    Selector::parse(css).unwrap_or_else(|e| panic!("the selector {css:?} does not parse: {e:?}"))
}

/// An element's text, its runs of ASCII white space folded to one space and trimmed. Only
/// ASCII: the no-break space (U+00A0) and the word joiner (U+2060) are part of how money
/// is written and stay.
fn text_of(element: ElementRef<'_>) -> String {
    element
        .text()
        .collect::<String>()
        .split_ascii_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The text of every element of `html` that `css` picks, in page order.
pub fn select_text(html: &str, css: &str) -> Vec<String> {
    let page = Html::parse_document(html);
    page.select(&selector(css)).map(text_of).collect()
}

/// The text of the one element of `html` that `css` picks; fails when none or several do.
pub fn one_text(html: &str, css: &str) -> String {
    let all = select_text(html, css);
    assert_eq!(all.len(), 1, "{css:?} should pick one element: {all:?}");
    all.into_iter().next().unwrap_or_default()
}

/// How many elements of `html` `css` picks.
pub fn count(html: &str, css: &str) -> usize {
    Html::parse_document(html).select(&selector(css)).count()
}

/// Whether `css` picks any element of `html`.
pub fn has(html: &str, css: &str) -> bool {
    count(html, css) > 0
}

/// Attribute `name` of every element of `html` that `css` picks (elements without it
/// left out), in page order.
pub fn select_attr(html: &str, css: &str, name: &str) -> Vec<String> {
    let page = Html::parse_document(html);
    page.select(&selector(css))
        .filter_map(|e| e.value().attr(name).map(str::to_string))
        .collect()
}

/// The value of the chosen `<option>` of the `<select name="…">` named `name`: what the
/// form sends unless the player changes it. `None` when no option is marked `selected`.
pub fn selected(html: &str, name: &str) -> Option<String> {
    let chosen = select_attr(
        html,
        &format!("select[name=\"{name}\"] option[selected]"),
        "value",
    );
    assert!(chosen.len() <= 1, "{name}: more than one choice {chosen:?}");
    chosen.into_iter().next()
}

/// What the first form of `html` that `form_css` picks sends as it stands, as a person
/// who changes nothing would post it: each named `<input>` with its value (a checkbox or
/// radio button only when checked; buttons left out), each `<select>` with its chosen
/// option (else its first, as a browser does) and each `<textarea>` with its text.
pub fn form_values(html: &str, form_css: &str) -> Vec<(String, String)> {
    let page = Html::parse_document(html);
    let form = page
        .select(&selector(form_css))
        .next()
        .unwrap_or_else(|| panic!("no form {form_css:?}"));
    let mut values = Vec::new();
    for field in form.select(&selector("input[name], select[name], textarea[name]")) {
        let element = field.value();
        let name = element.attr("name").unwrap_or_default().to_string();
        let value = match element.name() {
            "select" => {
                let options: Vec<_> = field.select(&selector("option")).collect();
                let chosen = options
                    .iter()
                    .find(|o| o.value().attr("selected").is_some())
                    .or(options.first());
                chosen.map(|o| {
                    o.value()
                        .attr("value")
                        .map_or_else(|| text_of(*o), str::to_string)
                })
            }
            "textarea" => Some(field.text().collect()),
            _ => match element.attr("type").unwrap_or("text") {
                "submit" | "button" | "reset" | "image" | "file" => None,
                "checkbox" | "radio" if element.attr("checked").is_none() => None,
                "checkbox" | "radio" => Some(element.attr("value").unwrap_or("on").to_string()),
                _ => Some(element.attr("value").unwrap_or_default().to_string()),
            },
        };
        if let Some(value) = value {
            values.push((name, value));
        }
    }
    values
}

/// For every element of `html` that `css` picks, the text of each of its child elements:
/// a sheet cell `<td><span class="plus">+120</span><small>120</small></td>` is
/// `["+120", "120"]`, the hand's change then the running total.
pub fn parts(html: &str, css: &str) -> Vec<Vec<String>> {
    let page = Html::parse_document(html);
    page.select(&selector(css))
        .map(|e| e.child_elements().map(text_of).collect())
        .collect()
}

/// Whether some element of `html` that `css` picks has child elements saying `want`, in
/// order (see [`parts`]): one sheet cell with this change and this running total.
pub fn has_parts<S: AsRef<str>>(html: &str, css: &str, want: &[S]) -> bool {
    parts(html, css).iter().any(|cell| {
        cell.iter()
            .map(String::as_str)
            .eq(want.iter().map(AsRef::as_ref))
    })
}

/// Each `<dd>` of `html` that `dd_css` picks right after a `<dt>`, as (the term's text,
/// the description's text): `<dt>Ann</dt><dd class="money minus">−$0.70</dd>` is
/// `("Ann", "−$0.70")` for `dd.money.minus`.
pub fn terms(html: &str, dd_css: &str) -> Vec<(String, String)> {
    let page = Html::parse_document(html);
    page.select(&selector(&format!("dt + {dd_css}")))
        .filter_map(|dd| {
            let dt = dd.prev_siblings().find_map(ElementRef::wrap)?;
            Some((text_of(dt), text_of(dd)))
        })
        .collect()
}

/// Whether [`terms`] holds `term` described as `description`.
pub fn has_term(html: &str, dd_css: &str, term: &str, description: &str) -> bool {
    terms(html, dd_css)
        .iter()
        .any(|(t, d)| t == term && d == description)
}

/// What a refused form marks for the player to fix (`aria-invalid="true"`): the legend of
/// each marked group of chips and the name of each marked field, in page order.
pub fn marked_invalid(html: &str) -> Vec<String> {
    let page = Html::parse_document(html);
    page.select(&selector("[aria-invalid=true]"))
        .filter_map(|e| match e.value().name() {
            "fieldset" => e.select(&selector("legend")).next().map(text_of),
            _ => e.value().attr("name").map(str::to_string),
        })
        .collect()
}
