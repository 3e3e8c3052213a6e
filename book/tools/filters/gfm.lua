--[[
gfm.lua - the book as GitHub-flavoured Markdown, one .md file a chapter,
for a reader who has neither pandoc nor the repository's trees
(book/tools/book-dist.sh, make book-dist).

book-dist.sh runs each chapter through include.lua first, to pandoc's JSON
(every listing filled in, every chapter link numbered), into the directory
$QSL_GFM_JSON, one FILE.json per book/FILE.md of book/chapters.tsv, and
index.json for book/index.md.  Then it reads each JSON with this filter
and writes -t gfm; the metadata field gfm-page says which page is being
written: a chapter's FILE.md, or README.md for the contents page.  This
filter:

  - rewrites the links between chapters to the .md files:
      X.html       -> X.md
      X.html#A     -> X.md#S, S the anchor GitHub gives the heading that
                      is #A on X's own page
      #A           -> #S, the same in this chapter
      index.html   -> README.md
    GitHub makes a heading's anchor from its text (lowercase, punctuation
    dropped, spaces as hyphens, -1, -2, ... on repeats), not from pandoc's
    identifier, so each anchor is looked up in the target's JSON, whose
    headings are exactly those of its .md file, in order.  A link to a
    .html page that is no chapter, or to an anchor on no heading, stops
    pandoc with an error naming the page and the link;
  - writes the line numbers of a numbers="true" listing into the listing,
    beside each line, as the HTML shows them: the prose says "line 312";
    fences every code block, with its language or "text";
  - makes an experiment box a block quote, and drops the other divs and
    spans (a listing's frame), which GitHub would show as raw HTML;
    writes a definition list (the glossary) as terms in bold, each
    followed by its definition;
  - puts the chapter's kicker (its YAML front matter) above its title,
    and links to the previous chapter, the contents and the next one
    below it;
  - on the contents page, appends the chapters, each with its summary and
    its sections, as the HTML contents page lists them.
]]

local JSON_DIR = os.getenv("QSL_GFM_JSON")
local TOP = os.getenv("QSL_TOP")

local function fail(msg)
  error("\nbook (Markdown): " .. msg .. "\n", 0)
end

local function read_file(path)
  local f = io.open(path, "r")
  if not f then
    return nil
  end
  local text = f:read("a")
  f:close()
  return text
end

if not JSON_DIR or not TOP then
  fail("QSL_GFM_JSON and QSL_TOP must be set (book-dist.sh sets them)")
end

-- The chapters of book/chapters.tsv, in reading order: FILE.md names.
local chapters = {}
do
  local text = read_file(TOP .. "/book/chapters.tsv")
  if not text then
    fail("book/chapters.tsv is missing")
  end
  for line in text:gmatch("[^\n]+") do
    local f = line:match("^([^\t#][^\t]*%.md)\t")
    if f then
      table.insert(chapters, f)
    end
  end
end
local chapter_index = {}
for i, f in ipairs(chapters) do
  chapter_index[f] = i
end

--[[
GitHub's anchor for a heading's text, as github-slugger computes it:
lowercase; every character dropped but letters, digits, marks, "_", "-"
and " "; each space a hyphen.  Only ASCII punctuation and the common
non-ASCII punctuation and symbol blocks are dropped here (Latin-1's
symbols, General Punctuation, arrows, mathematical and technical symbols,
box drawing, shapes, dingbats, CJK punctuation): what a heading of this
book can hold.
]]
local function dropped(cp)
  if cp < 128 then
    local c = string.char(cp)
    return not (c:match("[%w_%- ]"))
  end
  return (cp >= 0xA0 and cp <= 0xBF and cp ~= 0xAA and cp ~= 0xB5 and cp ~= 0xBA)
    or cp == 0xD7 or cp == 0xF7
    or (cp >= 0x2000 and cp <= 0x206F)
    or (cp >= 0x2190 and cp <= 0x2BFF)
    or (cp >= 0x3000 and cp <= 0x303F)
end

local function github_slug(text)
  local out = {}
  for _, cp in utf8.codes(pandoc.text.lower(text)) do
    if not dropped(cp) then
      table.insert(out, cp == 32 and "-" or utf8.char(cp))
    end
  end
  return table.concat(out)
end

-- Every heading of BLOCKS, in document order, with its pandoc identifier,
-- its text and its GitHub anchor (numbered on repeats as GitHub does).
local function headings_of(blocks)
  local list, seen = {}, {}
  pandoc.Div(blocks):walk({
    Header = function(h)
      local text = pandoc.utils.stringify(h.content)
      local base = github_slug(text)
      local slug = base
      while seen[slug] do
        seen[base] = seen[base] + 1
        slug = base .. "-" .. seen[base]
      end
      seen[slug] = 0
      table.insert(list, { id = h.identifier, level = h.level, text = text, slug = slug,
        top = h.attributes["gfm-top"] == "1", content = h.content })
    end,
  })
  return list
end

-- A chapter's JSON, read once: its document, headings, pandoc id -> anchor.
local docs = {}
local function chapter_doc(file)
  if docs[file] then
    return docs[file]
  end
  local path = JSON_DIR .. "/" .. file:gsub("%.md$", ".json")
  local text = read_file(path)
  if not text then
    fail(path .. " is missing: book-dist.sh writes every chapter's JSON before the Markdown")
  end
  local doc = pandoc.read(text, "json")
  -- The chapter's own sections are its top-level headings: marked here,
  -- before the walk that numbers every heading, listings' ones too.
  for i, b in ipairs(doc.blocks) do
    if b.t == "Header" then
      b.attributes["gfm-top"] = "1"
      doc.blocks[i] = b
    end
  end
  local heads = headings_of(doc.blocks)
  local anchor = {}
  for _, h in ipairs(heads) do
    if h.id ~= "" and not anchor[h.id] then
      anchor[h.id] = h.slug
    end
  end
  local title
  for _, h in ipairs(heads) do
    if h.level == 1 then
      title = h.text
      break
    end
  end
  if not title then
    fail("book/" .. file .. " has no '# Title' heading")
  end
  docs[file] = { doc = doc, heads = heads, anchor = anchor, title = title }
  return docs[file]
end

local function md_of(page)
  return (page:gsub("%.html$", ".md"))
end

-- The link target T, written in the chapter HERE (FILE.md, or README.md for
-- the contents page), as a target in the Markdown; PROBLEMS collects what
-- leads nowhere.
local function rewrite(t, here, problems)
  if t:match("^%a[%w+.-]*:") then -- http:, mailto:, ...
    return t
  end
  local page, anchor = t:match("^([^#]*)#(.*)$")
  if not page then
    page, anchor = t, nil
  end
  local file
  if page == "" then
    if not anchor or anchor == "" or here == "README.md" then
      return t
    end
    file = here
  elseif page == "index.html" then
    return "README.md"
  elseif page:match("%.html$") then
    file = md_of(page)
    if not chapter_index[file] then
      table.insert(problems, "the link to " .. t .. ": " .. page .. " is not a chapter of the book (book/chapters.tsv)")
      return t
    end
  else
    return t -- an image, or a file beside the pages
  end
  local dest = md_of(file) == here and "" or file
  if not anchor or anchor == "" then
    return dest
  end
  local slug = chapter_doc(file).anchor[anchor]
  if not slug then
    table.insert(problems, "the link to " .. t .. ": " .. file .. " has no heading with id \"" .. anchor .. "\"")
    return t
  end
  return dest .. "#" .. slug
end

-- A listing's lines with its own line numbers beside them, from FIRST.
local function numbered(text, first)
  local lines = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    table.insert(lines, line)
  end
  local width = #tostring(first + #lines - 1)
  for i, line in ipairs(lines) do
    lines[i] = string.format("%" .. width .. "d", first + i - 1) .. (line == "" and "" or "  " .. line)
  end
  return table.concat(lines, "\n")
end

local function body_filter(here, problems)
  return {
    Link = function(el)
      local new = rewrite(el.target, here, problems)
      if new ~= el.target then
        el.target = new
        return el
      end
    end,
    CodeBlock = function(el)
      if el.classes:includes("numberLines") then
        local first = tonumber(el.attributes.startFrom or "1") or 1
        el.text = numbered(el.text, first)
      end
      -- The language alone: gfm writes nothing else.  A block without one
      -- is "text", so that it is fenced too (pandoc indents a code block
      -- with no attributes), and book-dist.sh's check sees every block.
      local lang = "text"
      for _, c in ipairs(el.classes) do
        if c ~= "numberLines" then
          lang = c
          break
        end
      end
      return pandoc.CodeBlock(el.text, pandoc.Attr("", { lang }))
    end,
    Div = function(el)
      if el.classes:includes("experiment") then
        return pandoc.BlockQuote(el.content)
      end
      return el.content
    end,
    Span = function(el)
      return el.content
    end,
    -- GitHub has no definition lists (the glossary): each term in bold,
    -- then its definition.
    DefinitionList = function(el)
      local out = pandoc.List()
      for _, item in ipairs(el.content) do
        out:insert(pandoc.Para({ pandoc.Strong(item[1]) }))
        for _, def in ipairs(item[2]) do
          out:extend(def)
        end
      end
      return out
    end,
  }
end

local function nav(i)
  local inl = pandoc.List()
  local function add(x)
    if #inl > 0 then
      inl:extend({ pandoc.Space(), pandoc.Str("·"), pandoc.Space() })
    end
    inl:extend(x)
  end
  if i > 1 then
    add({ pandoc.Str("←"), pandoc.Space(), pandoc.Link(chapter_doc(chapters[i - 1]).title, chapters[i - 1]) })
  end
  add({ pandoc.Link("Contents", "README.md") })
  if i < #chapters then
    add({ pandoc.Link(chapter_doc(chapters[i + 1]).title, chapters[i + 1]), pandoc.Space(), pandoc.Str("→") })
  end
  return pandoc.Para(inl)
end

-- The contents page's list: every chapter, its summary, its sections.
local function contents()
  local items = pandoc.List()
  for _, f in ipairs(chapters) do
    local c = chapter_doc(f)
    local item = pandoc.List({ pandoc.Para({ pandoc.Strong({ pandoc.Link(c.title, f) }) }) })
    local s = c.doc.meta.summary
    if s then
      item:insert(pandoc.Para({ pandoc.Str(pandoc.utils.stringify(s)) }))
    end
    local sections = pandoc.List()
    -- The chapter's own sections, as the HTML contents page lists them:
    -- its level-2 headings, not those a listing brought in.
    for _, h in ipairs(c.heads) do
      if h.top and h.level == 2 then
        sections:insert({ pandoc.Plain({ pandoc.Link(h.content, f .. "#" .. h.slug) }) })
      end
    end
    if #sections > 0 then
      item:insert(pandoc.BulletList(sections))
    end
    items:insert(item)
  end
  -- Not numbered: a chapter is named by its title, never by its place
  -- (book/index.md), as on the HTML contents page.
  return pandoc.BulletList(items)
end

function Pandoc(doc)
  local here = doc.meta["gfm-page"] and pandoc.utils.stringify(doc.meta["gfm-page"])
  if not here or here == "" then
    fail("the metadata gfm-page is not set (book-dist.sh sets it: the .md file being written)")
  end
  local problems = {}
  local blocks = pandoc.Div(doc.blocks):walk(body_filter(here, problems)).content
  local i = chapter_index[here]
  if i then
    local kicker = doc.meta.kicker
    if kicker then
      blocks:insert(1, pandoc.Para({ pandoc.Emph({ pandoc.Str(pandoc.utils.stringify(kicker)) }) }))
    end
    blocks:insert(pandoc.HorizontalRule())
    blocks:insert(nav(i))
  elseif here == "README.md" then
    blocks:insert(pandoc.Header(2, "Contents"))
    blocks:insert(contents())
  else
    fail("gfm-page=" .. here .. " is neither a chapter of book/chapters.tsv nor README.md")
  end
  if #problems > 0 then
    fail(here .. ": " .. #problems .. " link(s) lead nowhere in the Markdown:\n  " .. table.concat(problems, "\n  "))
  end
  doc.blocks = blocks
  return doc
end
