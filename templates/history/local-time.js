// Shows each <time datetime="…Z"> of the history in the phone's own time zone and words
// ("Thu, Nov 20, 8:15 PM"; a night's day, data-day, as "Monday, December 7, 2026");
// without script the UTC day stays.
for (const t of document.querySelectorAll("time[datetime]")) {
  const when = new Date(t.getAttribute("datetime"));
  if (!Number.isNaN(when.getTime())) {
    t.textContent = t.hasAttribute("data-day")
      ? when.toLocaleDateString(undefined, {
        weekday: "long", day: "numeric", month: "long", year: "numeric",
      })
      : when.toLocaleString(undefined, {
        weekday: "short", month: "short", day: "numeric", hour: "numeric", minute: "2-digit",
      });
    t.title = when.toLocaleString();
  }
}
