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

/// The markup of every element of `html` that `css` picks, in page order: a part of a page
/// to read on its own with the helpers here.
pub fn outer_html(html: &str, css: &str) -> Vec<String> {
    let page = Html::parse_document(html);
    page.select(&selector(css)).map(|e| e.html()).collect()
}

/// The rows of the first `<tbody>` of `html`, each wrapped in a table of its own (html5ever
/// drops a `<tr>` found outside one), so a row is read alone: the sheet's hand, its money
/// line, its note.
pub fn body_rows(html: &str) -> Vec<String> {
    let body = outer_html(html, "tbody")
        .into_iter()
        .next()
        .expect("a table body");
    outer_html(&format!("<table>{body}</table>"), "tbody > tr")
        .into_iter()
        .map(|row| format!("<table><tbody>{row}</tbody></table>"))
        .collect()
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

/// The refusal a page shows at the top of its form: the message of the focused
/// `p.error[role=alert]` and the rule it cites (the text of the `details.error-rule` right
/// after it, its "which rule" summary left out), `None` when it cites none.
pub fn refusal(html: &str) -> (String, Option<String>) {
    let message = one_text(html, "p.error[role=alert][autofocus]");
    let page = Html::parse_document(html);
    let rule = page
        .select(&selector(
            "p.error[role=alert][autofocus] + details.error-rule",
        ))
        .next()
        .map(|details| {
            let own: String = details
                .children()
                .filter_map(|child| child.value().as_text().map(|t| t.to_string()))
                .collect();
            own.split_ascii_whitespace().collect::<Vec<_>>().join(" ")
        });
    (message, rule)
}

/// [`refusal`] as owned words, for `assert_eq!` against what the rules say.
pub fn refused_with(message: &str, rule: Option<&str>) -> (String, Option<String>) {
    (message.to_string(), rule.map(str::to_string))
}

/// Every text node of `html` (white space folded, empty ones left out), in page order: a
/// word that stands alone between two tags, as a name in a cell or a menu does.
pub fn texts(html: &str) -> Vec<String> {
    Html::parse_document(html)
        .root_element()
        .descendants()
        .filter_map(|node| node.value().as_text().map(|t| t.to_string()))
        .map(|t| t.split_ascii_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|t| !t.is_empty())
        .collect()
}

/// The `href` of every link (`<a>`) of `html` whose text is `text`, in page order.
pub fn links_named(html: &str, text: &str) -> Vec<String> {
    let page = Html::parse_document(html);
    page.select(&selector("a[href]"))
        .filter(|a| text_of(*a) == text)
        .filter_map(|a| a.value().attr("href").map(str::to_string))
        .collect()
}

/// The settle-up's transfers (`ul.transfers > li`: `<strong>Bob</strong> pays
/// <strong>Ann</strong> $1.60`), each as "Bob pays Ann $1.60": the two names in bold and
/// the words right after the second.
pub fn transfers(html: &str) -> Vec<String> {
    let page = Html::parse_document(html);
    page.select(&selector("ul.transfers > li"))
        .filter_map(|li| {
            let names: Vec<_> = li.child_elements().take(2).collect();
            let [from, to] = names.as_slice() else {
                return None;
            };
            if from.value().name() != "strong" || to.value().name() != "strong" {
                return None;
            }
            let amount = to.next_sibling()?.value().as_text()?.trim().to_string();
            let between = from.next_sibling()?.value().as_text()?.trim().to_string();
            Some(format!(
                "{} {between} {} {amount}",
                text_of(*from),
                text_of(*to)
            ))
        })
        .collect()
}

/// The text of the row around each `<b>` of `html` that reads `bold` (its nearest `tr`, `li`
/// or `p`): a game's closing line "Game 1: Ann wins at 1,030", a hand "Ann bid 2 made".
pub fn around_bold(html: &str, bold: &str) -> Vec<String> {
    let page = Html::parse_document(html);
    page.select(&selector("b"))
        .filter(|b| text_of(*b) == bold)
        .filter_map(|b| {
            b.ancestors()
                .filter_map(ElementRef::wrap)
                .find(|e| matches!(e.value().name(), "tr" | "li" | "p"))
                .map(text_of)
        })
        .collect()
}

/// Whether some row of `html` around a `<b>` reading `bold` says `words` (see
/// [`around_bold`]).
pub fn bold_says(html: &str, bold: &str, words: &str) -> bool {
    around_bold(html, bold)
        .iter()
        .any(|row| row.contains(words))
}

/// The text right after each element of `html` that `css` picks (its next sibling when
/// that is text, else empty), as written: `<abbr title="Jack">J</abbr>&nbsp;—` gives
/// "\u{a0}—".
pub fn text_after(html: &str, css: &str) -> Vec<String> {
    let page = Html::parse_document(html);
    page.select(&selector(css))
        .map(|e| {
            e.next_sibling()
                .and_then(|n| n.value().as_text().map(|t| t.to_string()))
                .unwrap_or_default()
        })
        .collect()
}

/// The radio chips of the first group (`<fieldset>`) of `html` holding a radio named
/// `name` under `scope` (a CSS selector, "" for the whole page): each (value, label), the
/// label being the element right after the radio (`<input …><span>Robert</span>`).
pub fn chips(html: &str, scope: &str, name: &str) -> Vec<(String, String)> {
    let page = Html::parse_document(html);
    let radio = selector(&format!("{scope} input[type=radio][name=\"{name}\"]"));
    let first = page
        .select(&radio)
        .next()
        .unwrap_or_else(|| panic!("{name} chips under {scope:?} in {html}"));
    let group = first
        .ancestors()
        .filter_map(ElementRef::wrap)
        .find(|e| e.value().name() == "fieldset")
        .unwrap_or_else(|| panic!("{name} chips outside a fieldset"));
    let own = selector(&format!("input[type=radio][name=\"{name}\"]"));
    group
        .select(&own)
        .map(|input| {
            let value = input.value().attr("value").unwrap_or_default().to_string();
            let label = input
                .next_siblings()
                .find_map(ElementRef::wrap)
                .map(text_of)
                .unwrap_or_default();
            (value, label)
        })
        .collect()
}

/// The players under each column head of `html` for `side` (`<th>NS<small>Ann &amp;
/// Cy</small></th>` gives "Ann & Cy"): the `<small>` of each `th` whose own text is `side`.
pub fn side_players(html: &str, side: &str) -> Vec<String> {
    let page = Html::parse_document(html);
    let small = selector("small");
    page.select(&selector("th"))
        .filter(|th| {
            let own: String = th
                .children()
                .filter_map(|c| c.value().as_text().map(|t| t.to_string()))
                .collect();
            own.trim() == side
        })
        .filter_map(|th| th.select(&small).next().map(text_of))
        .collect()
}

/// The words of every element of `html` that `css` picks, each text node apart: a sheet
/// cell `<span>+120</span><small>120</small>` is "+120 120" (white space folded, the
/// Unicode kind too).
pub fn cell_words(html: &str, css: &str) -> Vec<String> {
    let page = Html::parse_document(html);
    page.select(&selector(css))
        .map(|e| {
            e.text()
                .collect::<Vec<_>>()
                .join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}
