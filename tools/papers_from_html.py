#!/usr/bin/env python3
"""Writes example paper files for the arXiv HTML renditions under
../shared/fixtures/arxiv_html/, so that `paperboy review --from` has papers to review.

Title and abstract come from the page itself (math as its LaTeX). Authors are the names
the page shows. The date is the page's watermark ("arXiv:2403.10131v1 [cs.CL] 15 Mar
2024") where it has one, else the first day of the month the id names; categories are
the watermark's, else those listed below. Pages that are no paper (a failed conversion,
a workshop's index) are left out. Run once from the repository's root; it writes new
files only and adds each paper to its week's digest (creating the digest if needed): a
version 1 as a new paper, a later version among the week's new versions, since the
watermark's date is that version's (arXiv lists it as a replacement that week; the
site's page then shows the month the id names as the first version's, not this date).

    python3 tools/papers_from_html.py
"""
import datetime, html, os, re, sys

FIXTURES = "../shared/fixtures/arxiv_html"

# id -> (version, authors as the page shows them, categories when the page has no watermark)
PAPERS = {
    "1706.03762": (1, ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit", "Llion Jones", "Aidan N. Gomez", "Łukasz Kaiser", "Illia Polosukhin"], ["cs.CL", "cs.LG"]),
    "1808.08002": (1, ["Mateus de Freitas Virgilio Pereira", "Igor Afonso Acampora Prado", "Davi Ferreira de Castro", "José Manoel Balthazar"], ["eess.SY", "cs.SY"]),
    "1810.04805": (2, ["Jacob Devlin", "Ming-Wei Chang", "Kenton Lee", "Kristina Toutanova"], None),
    "2210.12503": (1, ["Yifeng Ding", "Wesley H. Holliday", "Eric Pacuit"], ["econ.TH", "cs.GT"]),
    "2306.08568": (1, ["Ziyang Luo", "Can Xu", "Pu Zhao", "Qingfeng Sun", "Xiubo Geng", "Wenxiang Hu", "Chongyang Tao", "Jing Ma", "Qingwei Lin", "Daxin Jiang"], ["cs.CL", "cs.AI"]),
    "2309.12288": (1, ["Lukas Berglund", "Meg Tong", "Max Kaufmann", "Mikita Balesni", "Asa Cooper Stickland", "Tomasz Korbak", "Owain Evans"], ["cs.CL", "cs.AI", "cs.LG"]),
    "2403.10131": (1, ["Tianjun Zhang", "Shishir G. Patil", "Naman Jain", "Sheng Shen", "Matei Zaharia", "Ion Stoica", "Joseph E. Gonzalez"], None),
    "2403.15796": (2, ["Zhengxiao Du", "Aohan Zeng", "Yuxiao Dong", "Jie Tang"], None),
    "2404.05875": (1, ["Zifeng Wang", "Chun-Liang Li", "Vincent Perot", "Long T. Le", "Jin Miao", "Zizhao Zhang", "Chen-Yu Lee", "Tomas Pfister"], None),
    "2404.14219": (1, ["Microsoft"], None),
    "2501.11120": (1, ["Jan Betley", "Xuchan Bao", "Martín Soto", "Anna Sztyber-Betley", "James Chua", "Owain Evans"], ["cs.CL", "cs.AI", "cs.CR", "cs.LG"]),
}


def text_of(fragment):
    fragment = re.sub(r'<math[^>]*alttext="([^"]*)"[^>]*>.*?</math>', lambda m: "$" + html.unescape(m.group(1)) + "$", fragment, flags=re.S)
    # Inline tags part no words: "<span>B</span>idirectional" is one word.
    fragment = re.sub(r"<[^>]+>", "", fragment)
    t = " ".join(html.unescape(fragment).split())
    return t.replace("Report issue for preceding element", "").replace("  ", " ").strip()


def page_dir(pid, version):
    for name in (f"{pid}v{version}", pid):
        if os.path.isfile(os.path.join(FIXTURES, name, "index.html")):
            return os.path.join(FIXTURES, name)
    sys.exit(f"no page for {pid}")


def toml_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def key_list(text, key):
    """The match of a digest's `key = [...]` list, or None."""
    return re.search(rf"^{key} = \[(.*?)\]", text, re.S | re.M)


def ids_of(match):
    return re.findall(r'"([^"]+)"', match.group(1)) if match else []


def main():
    weeks = {}
    for pid, (version, authors, cats) in PAPERS.items():
        page = open(os.path.join(page_dir(pid, version), "index.html"), encoding="utf8").read()
        for a in authors:
            if a != "Microsoft" and a.split()[-1] not in page:
                sys.exit(f"{pid}: {a} is not on the page")
        title = text_of(re.search(r'<h1[^>]*class="ltx_title ltx_title_document"[^>]*>(.*?)</h1>', page, re.S).group(1))
        start = re.search(r'<div[^>]*class="ltx_abstract"', page).start()
        depth, end = 0, start
        for m in re.finditer(r"<(/?)div\b", page[start:]):
            depth += -1 if m.group(1) else 1
            if depth == 0:
                end = start + m.end()
                break
        block = page[start:end]
        paras = re.findall(r'<p[^>]*class="ltx_p[^"]*"[^>]*>(.*?)</p>', block, re.S)
        abstract = " ".join(text_of(p) for p in paras)
        wm = re.search(r'id="watermark-tr"[^>]*>\s*arXiv:\S+ \[([^\]]+)\] (\d+ \w+ \d{4})</div>', page)
        if wm:
            date = datetime.datetime.strptime(wm.group(2), "%d %b %Y")
            cats = [wm.group(1)] + [c for c in (cats or []) if c != wm.group(1)]
        else:
            date = datetime.datetime(2000 + int(pid[:2]), int(pid[2:4]), 1)
        stamp = date.strftime("%Y-%m-%dT00:00:00Z")
        path = f"content/papers/{pid[:4]}/{pid}.md"
        if os.path.exists(path):
            print(f"{path} exists; left as it is")
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf8") as f:
            f.write("+++\n")
            f.write(f"id = {toml_str(pid)}\nversion = {version}\ntitle = {toml_str(title)}\n")
            f.write("authors = [" + ", ".join(toml_str(a) for a in authors) + "]\n")
            f.write(f"published = {stamp}\nupdated = {stamp}\n")
            f.write(f"primary_category = {toml_str(cats[0])}\n")
            f.write("categories = [" + ", ".join(toml_str(c) for c in cats) + "]\n")
            f.write(f"abstract = {toml_str(abstract)}\ncomment = \"\"\njournal_ref = \"\"\ndoi = \"\"\nsource = \"arxiv\"\n\n")
            f.write(f"[links]\nabs = \"https://arxiv.org/abs/{pid}\"\npdf = \"https://arxiv.org/pdf/{pid}v{version}\"\n\n")
            f.write("[review]\nheadline = \"\"\nsummary = \"\"\nbadges = []\nfigure = \"\"\n+++\n")
        iso = date.isocalendar()
        weeks.setdefault((iso[0], iso[1]), []).append((pid, "papers" if version == 1 else "updated_papers"))
        print(f"wrote {path}")
    for (year, week), entries in sorted(weeks.items()):
        name = f"{year}-W{week:02d}"
        path = f"content/digests/{name}.md"
        if not os.path.exists(path):
            monday = datetime.date.fromisocalendar(year, week, 1)
            open(path, "w", encoding="utf8").write(
                f"+++\nweek = \"{name}\"\ntitle = \"Week {week}, {year}\"\nstart = {monday}\nend = {monday + datetime.timedelta(days=6)}\n"
                "papers = []\nupdated_papers = []\n+++\n")
        text = open(path, encoding="utf8").read()
        for key in ("papers", "updated_papers"):
            ids = [i for i, k in entries if k == key]
            if not ids:
                continue
            m = key_list(text, key)
            if not m:  # the key is optional in a digest: added before the closing +++
                end = text.rindex("+++")
                text = text[:end] + f"{key} = []\n" + text[end:]
                m = key_list(text, key)
            # A paper the week lists as new is not also one of its new versions.
            taken = ids_of(key_list(text, "papers")) if key == "updated_papers" else []
            listed = ids_of(m)
            new = listed + [i for i in ids if i not in listed and i not in taken]
            text = text[: m.start()] + f"{key} = [" + "".join(f"\n  {toml_str(i)}," for i in new) + "\n]" + text[m.end():]
        open(path, "w", encoding="utf8").write(text)
        print(f"wrote {path}")


main()
