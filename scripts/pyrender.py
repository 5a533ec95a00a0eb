"""Shared helpers for scantext's sample and photo generators: page text and rendering.

Pages are rendered with DejaVu fonts (Debian's fonts-dejavu-core) through Pillow. Everything
is seeded, so the same command makes the same files.
"""
import random
import sys

try:
    from PIL import Image, ImageDraw, ImageFilter, ImageFont
    import numpy  # noqa: F401  (make-photos draws with it)
except ImportError:
    # The generators install what they draw with, as scripts/eval installs OpenCV: a fresh
    # machine runs them with no setup step of its own.
    print("scantext scripts: installing Pillow and numpy (python3 -m pip install pillow numpy)", file=sys.stderr)
    import subprocess
    if subprocess.run([sys.executable, "-m", "pip", "install", "-q", "pillow", "numpy"], stdout=subprocess.DEVNULL).returncode:
        sys.exit("scantext scripts need Pillow and numpy, and pip could not install them: python3 -m pip install pillow numpy")
    from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT_DIR = "/usr/share/fonts/truetype/dejavu/"

PARAGRAPHS = [
    "The quarterly report shows that shipping volumes rose by twelve percent while costs fell slightly.",
    "Please return the signed contract to our office before the end of the month, together with a copy of your identity card.",
    "Our team visited three warehouses in the northern region and counted every pallet twice to be sure.",
    "The committee approved the budget for the new library, which will open to the public next spring.",
    "Invoice 4471 covers the repair of two printers, one scanner and the replacement of a broken window.",
    "Weather permitting, the ferry leaves the harbour at seven in the morning and returns before noon.",
    "Students must submit their essays by Friday; late work will lose five points for each day of delay.",
    "A simple recipe: mix flour, water and salt, knead for ten minutes, then let the dough rest overnight.",
    "The museum keeps letters written by sailors who crossed the ocean more than two hundred years ago.",
    "Meeting notes: the board agreed to hire four engineers and to review the travel policy in June.",
    "Keep this receipt as proof of purchase. Items may be exchanged within thirty days of the sale.",
    "Temperatures across the valley stayed below freezing for most of the week, closing several roads.",
]


def page_text(seed, paragraphs=6):
    rng = random.Random(seed)
    chosen = rng.sample(PARAGRAPHS, paragraphs)
    title = rng.choice(["Annual Summary", "Field Notes", "Office Memo", "Project Update", "Customer Letter"])
    return title, chosen


def wrap(draw, text, font, width):
    words, lines, line = text.split(), [], ""
    for w in words:
        trial = (line + " " + w).strip()
        if draw.textlength(trial, font=font) <= width:
            line = trial
        else:
            lines.append(line)
            line = w
    if line:
        lines.append(line)
    return lines


def render_page(seed, width, height, font_px, paragraphs=6, margin_frac=0.08):
    """A white page with a title and wrapped paragraphs. Returns (grey image, ground-truth lines)."""
    title, paras = page_text(seed, paragraphs)
    img = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(img)
    body = ImageFont.truetype(FONT_DIR + "DejaVuSerif.ttf", font_px)
    head = ImageFont.truetype(FONT_DIR + "DejaVuSans-Bold.ttf", int(font_px * 1.4))
    margin = int(width * margin_frac)
    y = margin
    gt = [title]
    draw.text((margin, y), title, font=head, fill=0)
    y += int(font_px * 2.6)
    for p in paras:
        for line in wrap(draw, p, body, width - 2 * margin):
            if y + font_px * 1.5 > height - margin:
                return img, gt
            draw.text((margin, y), line, font=body, fill=0)
            gt.append(line)
            y += int(font_px * 1.45)
        y += int(font_px * 0.7)
    return img, gt


def sample(image, x, y):
    """Bilinear samples of an H x W (x C) numpy array at points x, y (pixel indices); 0 where x
    is NaN."""
    import numpy as np
    ok = ~np.isnan(x)
    xs, ys = np.nan_to_num(x), np.nan_to_num(y)
    x0 = np.clip(np.floor(xs).astype(np.int64), 0, image.shape[1] - 2)
    y0 = np.clip(np.floor(ys).astype(np.int64), 0, image.shape[0] - 2)
    fx, fy = (xs - x0), (ys - y0)
    if image.ndim == 3:
        fx, fy, ok = fx[..., None], fy[..., None], ok[..., None]
    top = image[y0, x0] * (1 - fx) + image[y0, x0 + 1] * fx
    bottom = image[y0 + 1, x0] * (1 - fx) + image[y0 + 1, x0 + 1] * fx
    return np.where(ok, top * (1 - fy) + bottom * fy, 0).astype(np.float32)
