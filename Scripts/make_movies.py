#!/usr/bin/env python3
"""Writes Sources/Catalog/Resources/movies.plist, the workbook's poster catalog.

The catalog is deterministic: run this script again and the file comes out
byte-identical. It holds an array of dictionaries with the keys `name` and
`url` (both strings).

- Rows 0-8 are the nine "hot movies" of the articles, in the article's order
  and with its titles, moved to the fictional `.test` hosts (row 8,
  `hangge.com`, keeps the article's invalid `NO URL`).
- The rest are made-up titles spread over img1/img2/img3.posters.test.
- A few rows point at paths containing `/removed/`: the simulated server
  answers those with 404.
- Two pairs of rows share one URL exactly (step 4 downloads each once).
- One pair of different URLs shares the last path component
  (`.../spst/public/pN.png` and `.../mpst/public/pN.png`): a disk cache named
  by the last path component would mix them up.

Usage (from the package root):  python3 Scripts/make_movies.py
"""

from pathlib import Path
from xml.sax.saxutils import escape

TOTAL_ROWS = 240
PATH_PREFIX = "/view/movie_poster_cover"

ARTICLE_ROWS = [
    ("港囧", "img3", "spst", "2266145079"),
    ("第三种爱情", "img3", "mpst", "2267236332"),
    ("碟中谍5", "img3", "mpst", "2263582212"),
    ("小黄人大眼萌", "img3", "mpst", "2265761240"),
    ("夏洛特烦恼", "img3", "mpst", "2264377763"),
    ("魔镜", "img3", "mpst", "2266110047"),
    ("长江7号", "img3", "mpst", "2268754172"),
    ("九层妖塔", "img3", "mpst", "2267502788"),
]

# Rows whose poster the server no longer has (their path contains /removed/).
REMOVED_ROWS = [11, 37, 83, 152, 219]
# (original row, row that reuses the original's URL exactly).
SHARED_URL_PAIRS = [(13, 15), (96, 171)]
# (row with .../spst/public/pN.png, row with .../mpst/public/pN.png).
SAME_LAST_COMPONENT_PAIR = (24, 27)

ADJECTIVES = [
    "Silent", "Crimson", "Hidden", "Last", "Broken", "Golden", "Midnight", "Distant",
    "Frozen", "Burning", "Lost", "Electric", "Quiet", "Hollow", "Wild", "Velvet",
    "Iron", "Paper", "Glass", "Restless", "Northern", "Secret", "Endless", "Scarlet",
    "Shattered", "Lonely", "Bright", "Savage", "Gentle", "Forgotten", "Stolen", "Falling",
]
NOUNS = [
    "Harbor", "Orchard", "Signal", "Kingdom", "Lighthouse", "River", "Garden", "Empire",
    "Horizon", "Frontier", "Witness", "Voyage", "Carnival", "Mirror", "Compass", "Engine",
    "Summer", "Winter", "Island", "Canyon", "Station", "Letter", "Promise", "Shadow",
    "Orbit", "Tide", "Forest", "Bridge", "Crown", "Echo", "Meadow", "Citadel",
]
PLACES = [
    "Avalon", "the North", "Marrow Creek", "the Valley", "Lisbon", "Kestrel Bay", "the Dunes",
    "Old Town", "Saturn", "the Deep", "Ashford", "Blue Hill", "the Coast", "Nightfall",
]
PEOPLE = [
    "Mabel", "Theo", "Juniper", "Oscar", "Iris", "Felix", "Nora", "August", "Wren", "Silas",
    "Greta", "Hugo", "Clara", "Milo", "Hazel", "Jasper",
]
PATTERNS = [
    "The {adj} {noun}",
    "{noun} of {place}",
    "{adj} {noun}",
    "A {noun} in {place}",
    "{person}'s {noun}",
    "The {noun} Returns",
    "Beyond the {adj} {noun}",
    "{adj} {noun} {roman}",
    "Letters to {person}",
    "Night over {place}",
    "The {person} Affair",
    "{noun} and {noun2}",
]
ROMANS = ["II", "III", "IV"]


class SplitMix64:
    """The same small seeded generator the workbook uses: stable on every Python."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n

    def pick(self, items):
        return items[self.below(len(items))]


def poster_url(host, kind, picture_id):
    return f"https://{host}.posters.test{PATH_PREFIX}/{kind}/public/p{picture_id}.png"


def make_title(rng, used):
    while True:
        noun = rng.pick(NOUNS)
        noun2 = rng.pick(NOUNS)
        if noun2 == noun:
            continue
        title = rng.pick(PATTERNS).format(
            adj=rng.pick(ADJECTIVES), noun=noun, noun2=noun2, place=rng.pick(PLACES),
            person=rng.pick(PEOPLE), roman=rng.pick(ROMANS))
        title = title.replace("A E", "An E").replace("A I", "An I").replace("A O", "An O")
        if title not in used:
            used.add(title)
            return title


def make_rows():
    rng = SplitMix64(2015)
    rows = []
    used_titles = set()
    used_ids = set()
    for name, host, kind, picture_id in ARTICLE_ROWS:
        rows.append((name, poster_url(host, kind, picture_id)))
        used_titles.add(name)
        used_ids.add(picture_id)
    rows.append(("hangge.com", "NO URL"))
    used_titles.add("hangge.com")

    shared_sources = {copy: original for original, copy in SHARED_URL_PAIRS}
    spst_row, mpst_row = SAME_LAST_COMPONENT_PAIR
    same_component_id = None
    while len(rows) < TOTAL_ROWS:
        row = len(rows)
        title = make_title(rng, used_titles)
        host = ("img1", "img2", "img3")[rng.below(3)]
        while True:
            picture_id = str(2_270_000_000 + rng.below(20_000_000))
            if picture_id not in used_ids:
                used_ids.add(picture_id)
                break
        if row in shared_sources:
            url = rows[shared_sources[row]][1]
        elif row in REMOVED_ROWS:
            url = f"https://{host}.posters.test{PATH_PREFIX}/removed/public/p{picture_id}.png"
        elif row == spst_row:
            same_component_id = picture_id
            url = poster_url(host, "spst", picture_id)
        elif row == mpst_row:
            same_host = rows[spst_row][1].split("//")[1].split(".")[0]
            url = poster_url(same_host, "mpst", same_component_id)
        else:
            url = poster_url(host, "mpst", picture_id)
        rows.append((title, url))
    return rows


def render(rows):
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
        '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
        '<plist version="1.0">',
        "<array>",
    ]
    for name, url in rows:
        lines += [
            "\t<dict>",
            "\t\t<key>name</key>",
            f"\t\t<string>{escape(name)}</string>",
            "\t\t<key>url</key>",
            f"\t\t<string>{escape(url)}</string>",
            "\t</dict>",
        ]
    lines += ["</array>", "</plist>", ""]
    return "\n".join(lines)


def main():
    root = Path(__file__).resolve().parent.parent
    target = root / "Sources" / "Shared" / "Resources" / "movies.plist"
    target.write_text(render(make_rows()), encoding="utf-8")
    print(f"wrote {target.relative_to(root)}")


if __name__ == "__main__":
    main()
