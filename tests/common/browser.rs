//! A real browser for page tests: headless Chromium driven through chromedriver at phone
//! width (390 px), the service on a loopback port over a fresh database (an SQLite file, or
//! a new PostgreSQL database with `SCOREKEEPER_TEST_ENGINE=postgres`), and the few
//! gestures a player makes (fill, choose, press). Screenshots go under
//! `target/screenshots/` for a person to look at.
//!
//! Needs Debian's `chromium` and `chromium-driver`; `.ci/run` installs them. Without them
//! [`Browser::start`] says so and returns `None` (the test is skipped), except under CI,
//! where it fails.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use scorekeeper::web::{AppState, app};
use thirtyfour::components::SelectElement;
use thirtyfour::prelude::*;

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// The Chromium binary: `$SCOREKEEPER_CHROMIUM` when set (CI points it at a missing path to
/// prove that the browser tests then fail), else [`CHROMIUM`].
pub fn chromium() -> PathBuf {
    std::env::var_os("SCOREKEEPER_CHROMIUM").map_or_else(|| PathBuf::from(CHROMIUM), PathBuf::from)
}

/// The chromedriver binary: `$SCOREKEEPER_CHROMEDRIVER` when set, else [`CHROMEDRIVER`].
pub fn chromedriver() -> PathBuf {
    std::env::var_os("SCOREKEEPER_CHROMEDRIVER")
        .map_or_else(|| PathBuf::from(CHROMEDRIVER), PathBuf::from)
}

/// Whether both browser tools are installed. When one is missing: a failure under CI
/// (`ci`), never a silent pass; outside CI `false` with a note that the test is skipped.
pub fn tools_present_or_skip(chromium: &Path, chromedriver: &Path, ci: bool) -> bool {
    if chromium.exists() && chromedriver.exists() {
        return true;
    }
    assert!(
        !ci,
        "CI must install chromium and chromium-driver (see .ci/run): {} or {} is missing",
        chromium.display(),
        chromedriver.display()
    );
    eprintln!(
        "note: {} or {} is missing; the browser test is skipped (apt-get install chromium chromium-driver)",
        chromium.display(),
        chromedriver.display()
    );
    false
}

/// chromedriver in a process group of its own, stopped with every browser it started when
/// dropped: a phone whose test ended without quitting it would otherwise outlive the test
/// and keep a core busy.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        // The Chromium processes chromedriver starts stay in its group, so one signal to
        // the group ends them all (`kill -- -PGID`).
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.0.id())])
            .stderr(Stdio::null())
            .status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The service on a loopback port and a chromedriver to open phones against it.
pub struct Browser {
    _driver: Driver,
    driver_url: String,
    /// The service's address, `http://127.0.0.1:PORT`.
    pub base: String,
    /// The service's database, to import sessions directly.
    pub store: scorekeeper::store::WritePool,
    /// A scratch folder for this test's database and browser profiles.
    pub work: PathBuf,
}

impl Browser {
    /// Starts the service and chromedriver; `None` (with a visible note) when Chromium is
    /// not installed outside CI. `name` keeps concurrent tests' files apart.
    pub async fn start(name: &str) -> Option<Browser> {
        if !tools_present_or_skip(
            &chromium(),
            &chromedriver(),
            std::env::var_os("CI").is_some(),
        ) {
            return None;
        }
        let work =
            std::env::temp_dir().join(format!("scorekeeper-browser-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&work).unwrap();
        // A file in `work`, or with SCOREKEEPER_TEST_ENGINE=postgres a fresh database on the
        // test server, as the app tests', so the browser tests run on both engines.
        let database = crate::common::process::live_database(&work).await;
        let pool = scorekeeper::store::open(&database).await.unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let store = pool.clone();
        tokio::spawn(async move { axum::serve(listener, app(AppState::new(pool))).await });
        let port = free_port();
        let driver = Driver(
            Command::new(chromedriver())
                .arg(format!("--port={port}"))
                .process_group(0)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts"),
        );
        Some(Browser {
            _driver: driver,
            driver_url: format!("http://127.0.0.1:{port}"),
            base,
            store,
            work,
        })
    }

    /// A phone-sized headless Chromium with its own empty profile named `profile`.
    pub async fn phone(&self, profile: &str) -> WebDriver {
        phone(&self.driver_url, &self.work.join(profile)).await
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.work);
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `target/screenshots/`, created.
pub fn screenshots() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn phone(driver_url: &str, profile: &Path) -> WebDriver {
    let mut caps = DesiredCapabilities::chrome();
    caps.set_binary(&chromium().to_string_lossy()).unwrap();
    for arg in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
    ] {
        caps.add_arg(arg).unwrap();
    }
    // A desktop window cannot be narrower than 500 px; phone emulation gives a true 390.
    // One device pixel per CSS pixel: layout, fonts and targets are the same at any ratio,
    // and the suite's pictures (over 600 megapixels at ratio 2) are a quarter of the work.
    caps.set_browser_option(
        "mobileEmulation",
        serde_json::json!({ "deviceMetrics": { "width": 390, "height": 844, "pixelRatio": 1.0 } }),
    )
    .unwrap();
    caps.add_arg(&format!("--user-data-dir={}", profile.display()))
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match WebDriver::new(driver_url, caps.clone()).await {
            Ok(driver) => return driver,
            Err(e) if Instant::now() > deadline => panic!("chromedriver did not answer: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

/// Types `text` into the first field `name` a person can type into (hidden fields of the
/// same name, such as a proposed payment's own form carries, are passed over), replacing
/// what was there.
pub async fn fill(driver: &WebDriver, name: &str, text: &str) {
    let field = driver
        .find(By::Css(format!("[name='{name}']:not([type='hidden'])")))
        .await
        .unwrap();
    field.clear().await.unwrap();
    field.send_keys(text).await.unwrap();
}

/// Chooses `value` in the field `name` (the next-hand form's first): a select's option,
/// or the chip (a radio button's label) a player taps.
pub async fn choose(driver: &WebDriver, name: &str, value: &str) {
    let menu = format!("#next select[name='{name}'], form select[name='{name}']");
    if select_option(driver, &menu, value).await {
        return;
    }
    // The live sheet may swap the form in between finding the chip and tapping it (until
    // the first tap marks the form as being filled in): find it again then.
    let chip = By::XPath(format!(
        "(//input[@type='radio'][@name='{name}'][@value='{value}'])[1]/parent::label"
    ));
    let mut tries = 0;
    loop {
        let tapped = match driver.find(chip.clone()).await {
            Ok(label) => tap(driver, &label).await,
            Err(e) => Err(e),
        };
        match tapped {
            Ok(()) => return,
            Err(e) if tries < 20 => {
                tries += 1;
                let _ = e;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("the chip {value} of {name} cannot be tapped: {e}"),
        }
    }
}

/// Starts club `name` (passphrase "seven of clubs") on `phone` through its form, as a
/// person does, and waits for the club's page: the club's id.
pub async fn start_club(phone: &WebDriver, base: &str, name: &str) -> i64 {
    phone.goto(format!("{base}/clubs/new")).await.unwrap();
    fill(phone, "name", name).await;
    fill(phone, "passphrase", "seven of clubs").await;
    fill(phone, "again", "seven of clubs").await;
    submit(phone, "form[action='/clubs'] button").await;
    wait_for(phone, "Share link", Duration::from_secs(5)).await;
    let club_url = phone.current_url().await.unwrap().to_string();
    club_url.rsplit('/').next().unwrap().parse().unwrap()
}

/// What `script` (JavaScript run in the page, its `arguments` being `args`) returns, as
/// text: "" when it returns no string.
pub async fn script_text(driver: &WebDriver, script: &str, args: Vec<serde_json::Value>) -> String {
    driver
        .execute(script, args)
        .await
        .unwrap()
        .json()
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// What `script` (JavaScript run in the page, without arguments) returns, as JSON.
pub async fn script_value(driver: &WebDriver, script: &str) -> serde_json::Value {
    driver
        .execute(script, Vec::new())
        .await
        .unwrap()
        .json()
        .clone()
}

/// Picks the option `value` of the first `<select>` that `css` finds: whether there was one.
pub async fn select_option(driver: &WebDriver, css: &str, value: &str) -> bool {
    let selects = driver.find_all(By::Css(css)).await.unwrap();
    let Some(select) = selects.first() else {
        return false;
    };
    SelectElement::new(select)
        .await
        .unwrap()
        .select_by_value(value)
        .await
        .unwrap();
    true
}

/// The visible text of the first element `by` finds (fails when there is none).
pub async fn text_of(driver: &WebDriver, by: By) -> String {
    driver.find(by).await.unwrap().text().await.unwrap()
}

/// Clicks the element `css` finds.
pub async fn submit(driver: &WebDriver, css: &str) {
    driver
        .find(By::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Clicks `element` after scrolling it to the middle of the screen: chromedriver's own
/// scroll leaves it at the screen's foot, where a form's sticky Enter button (the poker
/// form's) would take the tap.
pub async fn tap(driver: &WebDriver, element: &WebElement) -> WebDriverResult<()> {
    driver
        .execute(
            "arguments[0].scrollIntoView({block: 'center'});",
            vec![element.to_json()?],
        )
        .await?;
    element.click().await
}

/// Waits until the page's source contains `text`; returns how long it took.
pub async fn wait_for(driver: &WebDriver, text: &str, limit: Duration) -> Duration {
    let start = Instant::now();
    loop {
        let source = driver.source().await.unwrap();
        if source.contains(text) {
            return start.elapsed();
        }
        if start.elapsed() >= limit {
            let url = driver.current_url().await.map(|u| u.to_string());
            let shown: String = source.chars().take(1500).collect();
            panic!("\"{text}\" did not appear within {limit:?} at {url:?}; the page: {shown}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The page's scroll width in CSS pixels (390 or less fits a phone).
pub async fn scroll_width(driver: &WebDriver) -> i64 {
    driver
        .execute("return document.documentElement.scrollWidth;", Vec::new())
        .await
        .unwrap()
        .json()
        .as_i64()
        .unwrap()
}

/// One Chrome DevTools command through chromedriver's own endpoint
/// (`POST /session/{id}/goog/cdp/execute`); thirtyfour's `cdp` feature stays off.
#[derive(Debug)]
struct Cdp {
    cmd: &'static str,
    params: serde_json::Value,
}

impl thirtyfour::common::command::ExtensionCommand for Cdp {
    fn parameters_json(&self) -> Option<serde_json::Value> {
        Some(serde_json::json!({ "cmd": self.cmd, "params": self.params }))
    }

    fn method(&self) -> axum::http::Method {
        axum::http::Method::POST
    }

    fn endpoint(&self) -> std::sync::Arc<str> {
        "/goog/cdp/execute".into()
    }
}

/// One Chrome DevTools command `cmd` with `params` on the phone's page; its answer.
pub async fn cdp(
    driver: &WebDriver,
    cmd: &'static str,
    params: serde_json::Value,
) -> serde_json::Value {
    driver
        .handle()
        .cmd(thirtyfour::common::command::Command::ExtensionCommand(
            Box::new(Cdp { cmd, params }),
        ))
        .await
        .unwrap_or_else(|e| panic!("{cmd}: {e}"))
        .value_json()
        .unwrap()
}

/// Photographs the whole `#sheet` into `target/screenshots/{file}`: the phone keeps its
/// 390 px width and is made as tall as the page for the picture (an element screenshot
/// stops at the bottom of the viewport), then gets its 844 px back.
pub async fn sheet_screenshot(driver: &WebDriver, file: &str) {
    section_screenshot(driver, "sheet", file).await;
}

/// Photographs the whole element with id `id` (a section of the page: `sheet`, `next`,
/// `settle`) into `target/screenshots/{file}`, as [`sheet_screenshot`] does.
pub async fn section_screenshot(driver: &WebDriver, id: &str, file: &str) {
    element_screenshot(driver, By::Id(id), file).await;
}

/// Photographs the whole page (its `body`) into `target/screenshots/{file}`, as
/// [`sheet_screenshot`] does.
pub async fn page_screenshot(driver: &WebDriver, file: &str) {
    element_screenshot(driver, By::Tag("body"), file).await;
}

/// Photographs what the phone's screen shows (the 390 × 844 viewport, not the whole page)
/// into `target/screenshots/{file}`.
pub async fn screen_screenshot(driver: &WebDriver, file: impl AsRef<Path>) {
    driver.screenshot(&screenshots().join(file)).await.unwrap();
}

async fn element_screenshot(driver: &WebDriver, element: By, file: &str) {
    let height = driver
        .execute("return document.documentElement.scrollHeight;", Vec::new())
        .await
        .unwrap()
        .json()
        .as_i64()
        .unwrap();
    let resize = |height: i64| {
        thirtyfour::common::command::Command::ExtensionCommand(Box::new(Cdp {
            cmd: "Emulation.setDeviceMetricsOverride",
            params: serde_json::json!({
                "width": 390, "height": height, "deviceScaleFactor": 1, "mobile": true
            }),
        }))
    };
    driver.handle().cmd(resize(height)).await.unwrap();
    driver
        .find(element)
        .await
        .unwrap()
        .screenshot(&screenshots().join(file))
        .await
        .unwrap();
    driver.handle().cmd(resize(844)).await.unwrap();
}

/// Makes the page see `prefers-color-scheme: dark` (or light again), as a phone set to dark
/// mode does.
pub async fn dark_mode(driver: &WebDriver, dark: bool) {
    emulate_media(driver, "", dark).await;
}

/// Makes the page see the media type `media` (`"print"`, or `""` for the screen) and
/// `prefers-color-scheme: dark` or light, as a printer or a phone in dark mode does.
pub async fn emulate_media(driver: &WebDriver, media: &str, dark: bool) {
    let scheme = if dark { "dark" } else { "light" };
    driver
        .handle()
        .cmd(thirtyfour::common::command::Command::ExtensionCommand(
            Box::new(Cdp {
                cmd: "Emulation.setEmulatedMedia",
                params: serde_json::json!({
                    "media": media,
                    "features": [{"name": "prefers-color-scheme", "value": scheme}]
                }),
            }),
        ))
        .await
        .unwrap();
}

/// Waits (up to 5 s) until an entry has landed where the table looks next: the page's
/// address ends in `#latest` and the latest row of the sheet is on the screen. Fails with
/// `what` otherwise.
pub async fn assert_landed(driver: &WebDriver, what: &str) {
    let start = Instant::now();
    loop {
        let seen = driver
            .execute(
                "var e = document.getElementById('latest'); if (!e) return [location.hash, false];\
                 var r = e.getBoundingClientRect();\
                 return [location.hash, r.top >= -1 && r.top < window.innerHeight];",
                Vec::new(),
            )
            .await
            .unwrap()
            .json()
            .clone();
        if seen == serde_json::json!(["#latest", true]) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{what}: the entry did not land on the latest row ({seen})"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What `fetch(url)` answers in the page: its status and text (the page's cookie goes along).
pub async fn page_fetch(driver: &WebDriver, url: &str) -> (i64, String) {
    try_page_fetch(driver, url)
        .await
        .unwrap_or_else(|e| panic!("fetch {url} in the page: {e}"))
}

/// [`page_fetch`] of where the page's link whose text is `text` points (the link must be
/// there): a download is checked through the very link a player taps.
pub async fn link_fetch(driver: &WebDriver, text: &str) -> (i64, String) {
    let link = driver.find(By::LinkText(text)).await.unwrap();
    let href = link.attr("href").await.unwrap().unwrap();
    page_fetch(driver, &href).await
}

/// [`page_fetch`], or the driver's error when the page went away under the script (a form
/// just submitted navigates, and a script running in the old page never answers): a caller
/// waiting for a write retries.
pub async fn try_page_fetch(
    driver: &WebDriver,
    url: &str,
) -> Result<(i64, String), thirtyfour::error::WebDriverError> {
    let answer = driver
        .execute_async(
            "const done = arguments[arguments.length - 1];\
             fetch(arguments[0]).then(r => r.text().then(t => done([r.status, t])));",
            vec![serde_json::json!(url)],
        )
        .await?
        .json()
        .clone();
    Ok((
        answer[0].as_i64().unwrap(),
        answer[1].as_str().unwrap().to_string(),
    ))
}

/// The phone's Wi-Fi: a loopback wire between the phones and the service that a test cuts
/// and mends. Cut, it closes every connection it carries (a live stream, a kept-alive
/// connection) and drops each new one at once, as a laptop's hotspot going away does; the
/// browser still believes it is online, so the page must learn it from failed requests.
pub struct Wire {
    /// The address phones open pages on, `http://127.0.0.1:PORT`.
    pub base: String,
    up: std::sync::Arc<std::sync::atomic::AtomicBool>,
    carried: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::AbortHandle>>>,
}

impl Wire {
    /// A wire to the service at `to` (`http://127.0.0.1:PORT`), up.
    pub async fn to(to: &str) -> Wire {
        use std::sync::atomic::Ordering;
        let target = to.trim_start_matches("http://").to_string();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let up = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let carried = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let (is_up, open) = (up.clone(), carried.clone());
        tokio::spawn(async move {
            while let Ok((mut phone, _)) = listener.accept().await {
                if !is_up.load(Ordering::SeqCst) {
                    continue; // dropped: the phone sees the connection close unanswered
                }
                let target = target.clone();
                let task = tokio::spawn(async move {
                    if let Ok(mut service) = tokio::net::TcpStream::connect(&target).await {
                        let _ = tokio::io::copy_bidirectional(&mut phone, &mut service).await;
                    }
                });
                open.lock().unwrap().push(task.abort_handle());
            }
        });
        Wire { base, up, carried }
    }

    /// The Wi-Fi goes: every connection is closed and new ones are dropped.
    pub fn cut(&self) {
        self.up.store(false, std::sync::atomic::Ordering::SeqCst);
        for task in self.carried.lock().unwrap().drain(..) {
            task.abort();
        }
    }

    /// The Wi-Fi is back.
    pub fn mend(&self) {
        self.up.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}
