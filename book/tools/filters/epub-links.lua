--[[
epub-links.lua - the chapters' links, made to work inside the EPUB.

The chapters link to one another as the HTML pages do: [step](X.html)
and [the states](X.html#the-states), and to their own sections as
[questions](#questions).  The EPUB is one pandoc document made of every
chapter at once, and there no X.html exists; pandoc splits the document
into its own xhtml files and resolves only links of the form #ID, to the
file where that ID ended up.  book.sh runs this filter for the EPUB only,
after include.lua (whose [step](X.html) links need the X.html targets), and it
rewrites every link into the #ID it means:

  X.html          -> #ID of X's first heading, its title
  X.html#A        -> #ID of the element that is A on X's own page
  #A              -> the same, in the chapter the link is in

Why not just #A: pandoc makes heading identifiers unique across the
document it reads.  On its own page, every chapter's "Questions" heading
is #questions; in the EPUB, only the first chapter's is, the second
chapter's is #questions-1, and so on.  So each chapter is read again on
its own (as book.sh renders its page) and its headings are paired, in
order, with the same headings in the EPUB's document; an explicit {#id}
or a span's or a div's id is kept by pandoc as it is.  Headings that
include.lua brought in from a .markdown file (Div .included) are on
both sides of that pairing only in the EPUB's document and are skipped.

A link to a .html page that is not a chapter of the book, to an anchor
that is on no element of the chapter, or a document whose level-1
headings are not one per input file stops pandoc with an error naming
the chapter and the link.
]]

local function read_file(path)
  local f = io.open(path, "r")
  if not f then
    return nil
  end
  local text = f:read("a")
  f:close()
  return text
end

local function fail(msg)
  error("\nbook (EPUB links): " .. msg .. "\n", 0)
end

-- The identifiers of the headings of BLOCKS, in order, without those of
-- the headings include.lua took from a .markdown file.
local function heading_ids(blocks)
  local ids = {}
  pandoc.Div(blocks):walk({
    traverse = "topdown",
    Div = function(d)
      if d.classes:includes("included") then
        return d, false
      end
    end,
    Header = function(h)
      table.insert(ids, h.identifier)
    end,
  })
  return ids
end

-- Every identifier on an element of BLOCKS: the set of them.
local function all_ids(blocks)
  local ids = {}
  local function add(el)
    local id = el.attr and el.attr.identifier
    if id and id ~= "" then
      ids[id] = true
    end
  end
  pandoc.Div(blocks):walk({
    Header = add, Div = add, Span = add, CodeBlock = add, Code = add,
    Link = add, Image = add, Table = add,
  })
  return ids
end

local function basename(path)
  return path:match("([^/]*)$")
end

function Pandoc(doc)
  local files = PANDOC_STATE.input_files

  -- The chapters: the document cut at each level-1 heading, one per
  -- input file, in the order book.sh gave them.
  local parts = {}
  for _, b in ipairs(doc.blocks) do
    if b.t == "Header" and b.level == 1 then
      table.insert(parts, pandoc.List())
    end
    if #parts == 0 then
      table.insert(parts, pandoc.List())
    end
    parts[#parts]:insert(b)
  end
  if #parts ~= #files then
    fail("the document has " .. #parts .. " parts cut at level-1 headings, for " .. #files ..
      " input files: every chapter must have exactly one '# Title' heading, at its top")
  end

  -- Per chapter: its page, its title's identifier, and what each
  -- identifier of its own page is in this document.
  local chapter_of_page = {}
  local chapters = {}
  for i, file in ipairs(files) do
    local page = basename(file):gsub("%.md$", ".html")
    local text = read_file(file)
    if not text then
      fail(file .. ": cannot read it again to pair its headings")
    end
    local own = heading_ids(pandoc.read(text, "markdown").blocks)
    local here = heading_ids(parts[i])
    if #own ~= #here then
      fail(file .. ": it has " .. #own .. " headings on its own page and " .. #here ..
        " in the EPUB's document; they cannot be paired")
    end
    local map = {}
    for j, id in ipairs(own) do
      map[id] = here[j]
    end
    local first = parts[i][1]
    if first.t ~= "Header" or first.level ~= 1 or first.identifier == "" then
      fail(file .. ": its first block is not its '# Title' heading with an identifier")
    end
    chapters[i] = { file = file, page = page, title = first.identifier, map = map, ids = all_ids(parts[i]) }
    chapter_of_page[page] = chapters[i]
  end

  -- The problems, raised together once every link has been seen (an
  -- error raised inside walk() would come out wrapped and garbled).
  local problems = {}

  -- The EPUB identifier of anchor A on chapter C's own page.
  local function resolve(c, a, from, target)
    if c.map[a] then
      return c.map[a]
    end
    if c.ids[a] then
      return a
    end
    table.insert(problems, from.file .. ": the link to " .. target .. ": " .. c.page ..
      " has no element with id=\"" .. a .. "\"")
    return a
  end

  for i, part in ipairs(parts) do
    local c = chapters[i]
    local out = pandoc.Div(part):walk({
      Link = function(el)
        local t = el.target
        if t:match("^%a[%w+.-]*:") then -- http:, mailto:, ...
          return nil
        end
        local page, anchor = t:match("^([^#]*)#(.*)$")
        if not page then
          page, anchor = t, nil
        end
        local new
        if page == "" then
          if not anchor or anchor == "" then
            return nil
          end
          new = "#" .. resolve(c, anchor, c, t)
        elseif page:match("%.html$") then
          local dest = chapter_of_page[page]
          if not dest then
            table.insert(problems, c.file .. ": the link to " .. t .. ": " .. page ..
              " is not a chapter of the book (book/chapters.tsv), so it is not in the EPUB")
            return nil
          end
          new = "#" .. ((anchor and anchor ~= "") and resolve(dest, anchor, c, t) or dest.title)
        else
          return nil
        end
        if new ~= t then
          el.target = new
          return el
        end
      end,
    })
    parts[i] = out.content
  end
  if #problems > 0 then
    fail(#problems .. " link(s) lead nowhere in the EPUB:\n  " .. table.concat(problems, "\n  "))
  end

  local blocks = pandoc.List()
  for _, part in ipairs(parts) do
    blocks:extend(part)
  end
  doc.blocks = blocks
  return doc
end
