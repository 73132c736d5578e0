//! A line chart of running money (cents) for the SVG template
//! (`templates/history/chart.html`): net over nights or balance hand by hand. Layout only;
//! the template draws it in `currentColor` and repeats the numbers as a table.

/// The drawing's width and height in SVG user units; it scales to the page's width.
pub const WIDTH: i64 = 360;
/// See [`WIDTH`].
pub const HEIGHT: i64 = 200;
/// Room for the money labels, "−$1234.56" at 11 px.
const LEFT: i64 = 64;
const RIGHT: i64 = 8;
const TOP: i64 = 10;
const BOTTOM: i64 = 24;

/// Line colours for light and dark backgrounds, each dashed so lines differ without colour.
const PENS: [(&str, &str); 6] = [
    ("#3b82f6", ""),
    ("#e8590c", "6 3"),
    ("#2f9e44", "2 3"),
    ("#ae3ec9", "8 3 2 3"),
    ("#0c8599", "4 4"),
    ("#c92a2a", "1 2"),
];

/// One player's line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Series {
    /// The player's display name.
    pub name: String,
    /// The stroke colour.
    pub color: &'static str,
    /// The stroke dash pattern ("" for solid).
    pub dash: &'static str,
    /// The polyline's points, "x,y x,y …" in user units.
    pub points: String,
    /// The last point, for the end marker.
    pub end: (i64, i64),
    /// The last value, as money ("-1.25").
    pub last: String,
}

/// A label on an axis at `pos` (user units along the axis).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tick {
    /// Where.
    pub pos: i64,
    /// What it says.
    pub label: String,
}

/// A chart ready to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chart {
    /// What it shows, for the caption and the SVG's title.
    pub title: String,
    /// Width and height in user units.
    pub size: (i64, i64),
    /// The plot's left and right edges.
    pub x_span: (i64, i64),
    /// The zero line's height.
    pub zero_y: i64,
    /// Money labels on the left.
    pub y_ticks: Vec<Tick>,
    /// Point labels along the bottom (first and last, and a few between).
    pub x_ticks: Vec<Tick>,
    /// One line per player.
    pub series: Vec<Series>,
    /// The same numbers as a table: the column heads (the point label, then each name).
    pub table_head: Vec<String>,
    /// One row per point: its label, then each player's value as money.
    pub table_rows: Vec<Vec<String>>,
}

/// Lays out `series` (name, cents per point) over `labels`; `money` formats cents.
pub fn line_chart(
    title: &str,
    labels: &[String],
    series: &[(String, Vec<i64>)],
    money: &dyn Fn(i64) -> String,
) -> Chart {
    let scale = Scale::of(labels, series);
    let (table_head, table_rows) = table(labels, series, money);
    Chart {
        title: title.to_string(),
        size: (WIDTH, HEIGHT),
        x_span: (LEFT, WIDTH - RIGHT),
        zero_y: scale.y(0),
        y_ticks: y_ticks(&scale, money),
        x_ticks: x_ticks(labels, &scale),
        series: lines(series, &scale, money),
        table_head,
        table_rows,
    }
}

/// Where a point goes: the value range (zero always in it) and the steps along x.
struct Scale {
    lo: i64,
    hi: i64,
    steps: i64,
}

impl Scale {
    /// The scale of `series`, zero included; a flat chart gets a dollar either side.
    fn of(labels: &[String], series: &[(String, Vec<i64>)]) -> Scale {
        let values = series.iter().flat_map(|(_, v)| v.iter().copied());
        let lo = values.clone().chain([0]).min().unwrap_or(0);
        let hi = values.chain([0]).max().unwrap_or(0);
        let (lo, hi) = if lo == hi {
            (lo - 100, hi + 100)
        } else {
            (lo, hi)
        };
        let steps = i64::try_from(labels.len().saturating_sub(1))
            .unwrap_or(i64::MAX)
            .max(1);
        Scale { lo, hi, steps }
    }

    /// The x of the `i`th point.
    fn x(&self, i: usize) -> i64 {
        let plot_w = WIDTH - LEFT - RIGHT;
        LEFT + plot_w.saturating_mul(i64::try_from(i).unwrap_or(0)) / self.steps
    }

    /// The y of the value `v` (cents).
    fn y(&self, v: i64) -> i64 {
        let plot_h = HEIGHT - TOP - BOTTOM;
        // i128: the span times the plot height cannot overflow.
        let span = i128::from(self.hi) - i128::from(self.lo);
        let off = (i128::from(self.hi) - i128::from(v)) * i128::from(plot_h) / span.max(1);
        TOP + i64::try_from(off).unwrap_or(0)
    }
}

/// One line per series, each with its own pen, ending at its last value.
fn lines(
    series: &[(String, Vec<i64>)],
    scale: &Scale,
    money: &dyn Fn(i64) -> String,
) -> Vec<Series> {
    series
        .iter()
        .enumerate()
        .map(|(n, (name, vals))| {
            let (color, dash) = PENS[n % PENS.len()];
            let points: Vec<(i64, i64)> = vals
                .iter()
                .enumerate()
                .map(|(i, &v)| (scale.x(i), scale.y(v)))
                .collect();
            Series {
                name: name.clone(),
                color,
                dash,
                points: points
                    .iter()
                    .map(|(a, b)| format!("{a},{b}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                end: points.last().copied().unwrap_or((LEFT, scale.y(0))),
                last: money(vals.last().copied().unwrap_or(0)),
            }
        })
        .collect()
}

/// The money labels: the highest, zero if the lines cross it, the lowest.
fn y_ticks(scale: &Scale, money: &dyn Fn(i64) -> String) -> Vec<Tick> {
    let (lo, hi) = (scale.lo, scale.hi);
    let mut y_ticks = vec![Tick {
        pos: scale.y(hi),
        label: money(hi),
    }];
    if lo < 0 && hi > 0 {
        y_ticks.push(Tick {
            pos: scale.y(0),
            label: money(0),
        });
    }
    y_ticks.push(Tick {
        pos: scale.y(lo),
        label: money(lo),
    });
    y_ticks
}

/// The point labels along the bottom: the first and the last, and about four between;
/// a label the one before already says is left out (two points of one day), so no text is
/// written twice or over itself.
fn x_ticks(labels: &[String], scale: &Scale) -> Vec<Tick> {
    let every = labels.len().div_ceil(4).max(1);
    let mut ticks: Vec<Tick> = Vec::new();
    for (i, l) in labels.iter().enumerate() {
        let wanted = i % every == 0 || i + 1 == labels.len();
        if wanted && ticks.last().is_none_or(|t| t.label != *l) {
            ticks.push(Tick {
                pos: scale.x(i),
                label: l.clone(),
            });
        }
    }
    ticks
}

/// The numbers as a table: names across, a row per point, empty past a series' end.
fn table(
    labels: &[String],
    series: &[(String, Vec<i64>)],
    money: &dyn Fn(i64) -> String,
) -> (Vec<String>, Vec<Vec<String>>) {
    let mut table_head = vec![String::new()];
    table_head.extend(series.iter().map(|(n, _)| n.clone()));
    let table_rows = labels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let mut row = vec![l.clone()];
            row.extend(
                series
                    .iter()
                    .map(|(_, v)| v.get(i).map(|c| money(*c)).unwrap_or_default()),
            );
            row
        })
        .collect();
    (table_head, table_rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::money::Money;

    #[test]
    fn lines_span_the_plot_and_zero_sits_between_the_extremes() {
        let labels = vec!["1".to_string(), "2".to_string(), "3".to_string()];
        let chart = line_chart(
            "t",
            &labels,
            &[
                ("Ann".into(), vec![100, 300, -100]),
                ("Bob".into(), vec![-100, -300, 100]),
            ],
            &|c| Money::from_cents(c).to_string(),
        );
        // From x = 64 to 352; 300 at the top (y 10), -300 at the bottom (y 176), 0 midway.
        // Ann: 100 → 10 + 200 × 166 / 600 = 65; -100 → 10 + 400 × 166 / 600 = 120 (floored).
        assert_eq!(chart.series[0].points, "64,65 208,10 352,120");
        assert_eq!(chart.zero_y, 93);
        assert_eq!(chart.table_rows[2], vec!["3", "-1.00", "1.00"]);
        assert_eq!(chart.series[1].last, "1.00");
    }

    #[test]
    fn a_date_two_points_share_is_written_once() {
        let labels: Vec<String> = ["Nov 19", "Nov 19", "Nov 26"].map(String::from).into();
        let chart = line_chart("t", &labels, &[("Ann".into(), vec![1, 2, 3])], &|c| {
            c.to_string()
        });
        let ticks: Vec<&str> = chart.x_ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(ticks, ["Nov 19", "Nov 26"]);
    }
}
