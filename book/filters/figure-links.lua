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
common/tests/book.sh checks that every <img> of the pages is so linked.
]]

local function linked(img)
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
