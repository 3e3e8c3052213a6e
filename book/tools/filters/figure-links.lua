--[[
figure-links.lua - every figure of an HTML page, a link to its own image.

At 390 px a figure is shrunk to the width of the column, and a diagram
of states or a plot with its legend can no longer be read.  Each figure
is wrapped in a link to its image file, so a reader on a phone taps it
and sees the SVG at full size (and can zoom it).  book.sh runs this
filter for the HTML pages only, after include.lua; the EPUB's reader
zooms an image itself, and there a link to an .svg would leave the book.

pandoc (2.x) makes a figure only of a paragraph that holds one image and
nothing else, so a linked image would lose its <figure> and caption.
The figure is therefore written out here as pandoc writes it, with the
image inside a link:

  <figure>
  <a href="SRC"><img src="SRC" alt="CAPTION" /></a>
  <figcaption aria-hidden="true">CAPTION</figcaption>
  </figure>

An image that is not a figure (inside a sentence) gets the same link.
book/tools/tests/book.sh checks that every <img> of the pages is so linked.

A figure also never shrinks until its text cannot be read: each SVG
image gets a min-width at which its smallest text still renders
MIN_TEXT_PX CSS pixels high (about the width of its viewBox times
MIN_TEXT_PX over its smallest font-size, both in the SVG's own units).  Where the
column is narrower, the figure scrolls sideways in its box (book.css)
instead of shrinking.  book/tools/tests/book-screens.sh renders every page
with a figure at 1280 and 390 px and measures each figure's text in
Chromium against the same MIN_TEXT_PX, read from this file.
The SVGs are read from $QSL_BOOK_OUT (the book's output directory, where
book.sh draws the diagrams), else from book/.
]]

local MIN_TEXT_PX = 8

local function read_svg(src)
  local top = os.getenv("QSL_TOP") or "."
  local dirs = { os.getenv("QSL_BOOK_OUT"), top .. "/book" }
  for _, d in ipairs(dirs) do
    local f = d and io.open(d .. "/" .. src, "r")
    if f then
      local text = f:read("a")
      f:close()
      return text
    end
  end
  error("figure-links.lua: cannot read the figure " .. src
    .. " (looked in $QSL_BOOK_OUT and book/): draw or record it first")
end

-- The width in CSS pixels under which SRC's smallest text would render
-- smaller than MIN_TEXT_PX; nil for an image that is not an SVG.
local function min_width(src)
  if not src:match("%.svg$") then
    return nil
  end
  local svg = read_svg(src)
  local head = svg:match("<svg[^>]*>")
  local vbw, vbh
  if head then
    vbw, vbh = head:match('viewBox="%s*[-%d.]+[%s,]+[-%d.]+[%s,]+([%d.]+)[%s,]+([%d.]+)')
  end
  if not vbw then
    error("figure-links.lua: " .. src .. " has no viewBox: its text size cannot be known")
  end
  vbw, vbh = tonumber(vbw), tonumber(vbh)
  -- The <img> keeps the aspect of the SVG's width and height (dot rounds
  -- them, so it can differ from the viewBox's a little); the viewBox is
  -- fitted inside, by the smaller of its two scales.
  local w = tonumber(head:match(' width="([%d.]+)') or "")
  local h = tonumber(head:match(' height="([%d.]+)') or "")
  local aspect = (w and h) and h / w or vbh / vbw
  local per_px = math.min(1 / vbw, aspect / vbh) -- user units to px, a px wide
  local smallest
  for size in svg:gmatch('font%-size[=:]%s*"?([%d.]+)') do
    local n = tonumber(size)
    if n and n > 0 and (not smallest or n < smallest) then
      smallest = n
    end
  end
  if not smallest then
    return nil -- no text
  end
  return math.ceil(MIN_TEXT_PX / (smallest * per_px))
end

local function with_min_width(img)
  local w = min_width(img.src)
  if w then
    img.attributes.style = "min-width: " .. w .. "px"
  end
  return img
end

local function linked(img)
  with_min_width(img)
  if img.title:sub(1, 4) == "fig:" then -- not a figure here: no "fig:" title
    img.title = img.title:sub(5)
  end
  return pandoc.Link({ img }, img.src, "", pandoc.Attr("", { "figure-link" }))
end

local function is_figure(para)
  return #para.content == 1 and para.content[1].t == "Image"
    and para.content[1].title:sub(1, 4) == "fig:"
end

local function inline_images(block)
  local changed = false
  local content = pandoc.List()
  for _, el in ipairs(block.content) do
    if el.t == "Image" then
      content:insert(linked(el))
      changed = true
    else
      content:insert(el)
    end
  end
  if changed then
    block.content = content
    return block
  end
end

function Plain(plain)
  if FORMAT:match("html") then
    return inline_images(plain)
  end
end

function Para(para)
  if not FORMAT:match("html") then
    return nil
  end
  if is_figure(para) then
    local img = para.content[1]
    local caption = img.caption
    local title = img.title:sub(5)
    local plain = pandoc.Image(caption, img.src, title, img.attr)
    return {
      pandoc.RawBlock("html", "<figure>"),
      pandoc.Plain({ linked(plain) }),
      pandoc.RawBlock("html", '<figcaption aria-hidden="true">'),
      pandoc.Plain(caption),
      pandoc.RawBlock("html", "</figcaption>"),
      pandoc.RawBlock("html", "</figure>"),
    }
  end
  -- Images inside running text: each in its own link (one already in a
  -- link is inside that Link, not among these inlines, and is left alone).
  return inline_images(para)
end
