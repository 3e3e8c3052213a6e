--[[
include.lua - pull code into the book from the repository, never paste it.
(It also checks how the prose names chapters, fills in the step of a
[step](X.html) link, and counts the contents page's reading time: see
the end of this file.)

A code block whose attributes name a file is replaced by that file, or by
part of it, under a label that says what was taken:

  ```{.diff include="steps/03-pending-bit/0003-pending-bit.patch"
            hunk="try_set_pending"}
  ```
  ```{.c include="steps/06-xchg-tail/tree/kernel/locking/qspinlock.c"
         function="queued_spin_lock_slowpath" from="xchg_tail(" to="}"
         numbers="true"}
  ```
  ```{.diff include="steps/03-pending-bit/tree/kernel/locking/qspinlock.c"
            function="queued_spin_lock_slowpath"
            diff="steps/02-x86-enable/tree/kernel/locking/qspinlock.c"}
  ```

Attributes (any other attribute is an error):
  include="PATH"    the file, relative to the repository root (required)
  function="NAME"   a C function, macro or struct/union/enum: from the
                    first line of its definition to the closing brace at
                    column 0 (a macro: to its last continued line);
                    "struct NAME" and friends select a type.  The first
                    definition in the file, or the first after after=
  kind="K"          count only definitions of kind K: function, macro or
                    type (a function and a macro of the same name, as in
                    "#define foo foo" before "static void foo(...)")
  comment="true"    also take the comment block right above the definition
  after="TEXT"      with function=: the first definition of NAME that
                    starts after the one line containing TEXT, e.g.
                    after="#else /* _Q_PENDING_BITS == 1 */" for the second
                    branch of an #if; TEXT must be on exactly one line
  from="TEXT"       the one line containing TEXT (inside the function when
  to="TEXT"         function= is given, else in the whole file), through
                    the first line from there on that contains TO (the
                    FROM line itself counts, so from="X" to="X" is X's
                    line).  FROM on no line or on two is an error; so is
                    TO not found, and to= without from=.  from= alone is
                    the one line
  diff="PATH"       with function=: the unified diff (diff -u) from the
                    function as it is in PATH (the old version, typically
                    the previous step's tree) to the function in include=
                    (the new one); after=, kind= and comment= apply to
                    both.  The @@ lines give the files' own line numbers.
                    An unchanged function is an error: no empty listings
  hunk="TEXT"       with a .patch: the one hunk that has TEXT in one of
                    its lines (context, - or +), under its file's ---/+++
                    lines.  No such hunk, or two, is an error
  section="S,..."   parts of a patch, in the order given: "message" is the
                    mail header, commit message and diffstat; "diff:PATH"
                    is every hunk of the file PATH.  With hunk=, one
                    "diff:PATH" limits the search to that file's hunks
  table="TEXT"      with .markdown: the whole pipe table that has TEXT on
                    one of its lines (TEXT on exactly one line of the
                    file), from its header to its last row, however many
                    rows a recording gives it
  numbers="true"    show the file's own line numbers beside a whole file,
                    a function= or a from= selection (pandoc's numberLines,
                    starting at the first line taken), so that the prose
                    may say "line 312"
  caption="TEXT"    the label shown above the listing, instead of the
                    file name and what was taken from it

Removed, and an error that says what to use instead: lines="A-B" (use
from=/to=), occurrence="N" (use after= or kind=), optional="true" (every
included file must exist).

A block of class .markdown is not a listing: the file (or the part taken)
is read as Markdown and its blocks replace the code block, under the same
label.  The benchmark tables in book/bench/ come in this way, as a run
wrote them, so no number is copied by hand.  When from= selects rows of a
pipe table, the table's header row and rule are put back above them, so
that one row still reads as a table.

Anything missing or ambiguous stops pandoc with an error naming the
chapter, the file and what was asked for.  The repository root is
$QSL_TOP, or two levels above this filter (book/tools/filters/).
]]

local function repo_root()
  local top = os.getenv("QSL_TOP")
  if top and top ~= "" then
    return top
  end
  local dir = PANDOC_SCRIPT_FILE:match("^(.*)/[^/]*$") or "."
  return dir .. "/../.."
end

local TOP = repo_root()

local function read_file(path)
  local f = io.open(path, "r")
  if not f then
    return nil
  end
  local text = f:read("a")
  f:close()
  return text
end

local function write_file(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

-- The chapters that ask for PATH: the input files whose text names it.
-- With one chapter per pandoc run this is that chapter; with the whole
-- book at once it still points at the right file.
local function chapters_for(path)
  local found = {}
  for _, f in ipairs(PANDOC_STATE.input_files) do
    local text = read_file(f)
    if text and text:find('include="' .. path .. '"', 1, true) then
      table.insert(found, f)
    end
  end
  if #found == 0 then
    found = PANDOC_STATE.input_files
  end
  if #found == 0 then
    return "(stdin)"
  end
  return table.concat(found, ", ")
end

local function fail(path, msg)
  error("\nbook: " .. chapters_for(path) .. ": " .. path .. ": " .. msg .. "\n", 0)
end

local function q(s)
  return '"' .. s .. '"'
end

local function split_lines(text)
  local lines = {}
  for line in (text .. "\n"):gmatch("(.-)\n") do
    table.insert(lines, line)
  end
  -- A file ending in a newline leaves one empty string at the end.
  if #lines > 0 and lines[#lines] == "" then
    table.remove(lines)
  end
  return lines
end

local function join(lines, from, to)
  return table.concat(lines, "\n", from, to)
end

local function escape_pattern(s)
  return (s:gsub("[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0"))
end

-- The numbers of the lines from A to B that contain TEXT.
local function lines_with(lines, text, a, b)
  local found = {}
  for i = a, b do
    if lines[i]:find(text, 1, true) then
      table.insert(found, i)
    end
  end
  return found
end

local function list_numbers(ns)
  local s = {}
  for i, n in ipairs(ns) do
    if i > 6 then
      table.insert(s, "...")
      break
    end
    table.insert(s, tostring(n))
  end
  return table.concat(s, ", ")
end

-- "queued_spin_lock_slowpath()" or "struct qspinlock".
local function fname(name)
  return name .. (name:match("^%a+ ") and "" or "()")
end

-- Does line I end a declaration without a body (a prototype)?  Looks from
-- the line that names the function to the first '{' or ';'.
local function is_prototype(lines, i)
  for j = i, math.min(i + 10, #lines) do
    local l = lines[j]
    local brace = l:find("{", 1, true)
    local semi = l:find(";", 1, true)
    if brace and (not semi or brace < semi) then
      return false
    end
    if semi then
      return true
    end
  end
  return true
end

-- The kind of definition that starts on LINE, if it defines NAME.
local function defines(lines, i, name)
  local line = lines[i]
  local word = escape_pattern(name)
  if line:match("^#%s*define%s+" .. word .. "%f[^%w_]") then
    return "macro"
  end
  if name:match("^struct ") or name:match("^union ") or name:match("^enum ") then
    if line:match("^[%w_ ]*%f[%w_]" .. word .. "%s*{") then
      return "type"
    end
    return nil
  end
  if line:match("^[%a_]") and line:match("%f[%w_]" .. word .. "%s*%(")
      and not line:match("^EXPORT_SYMBOL") and not is_prototype(lines, i) then
    return "function"
  end
  return nil
end

-- The line of after="TEXT": TEXT must be on exactly one line of the file.
local function after_line(lines, text, path, asked)
  local found = lines_with(lines, text, 1, #lines)
  if #found == 0 then
    fail(path, asked .. ": after=" .. q(text) .. " is on no line of the file")
  end
  if #found > 1 then
    fail(path, asked .. ": after=" .. q(text) .. " is on " .. #found ..
      " lines of the file: " .. list_numbers(found) .. "; after= must be on one line: make it distinctive")
  end
  return found[1]
end

-- The first and last line of the definition of NAME (the first one of kind
-- WANT, if given, starting after line AFTER, if given), with the comment
-- above it if COMMENT.
local function find_function(lines, name, o, path, asked)
  local start = 1
  if o.after then
    start = after_line(lines, o.after, path, asked) + 1
  end
  for i = start, #lines do
    local kind = defines(lines, i, name)
    if kind and o.kind and kind ~= o.kind then
      kind = nil
    end
    if kind then
      local first, last = i, nil
      if kind == "macro" then
        last = i
        while lines[last]:match("\\%s*$") and last < #lines do
          last = last + 1
        end
      else
        -- The return type may sit on the line(s) above the name.
        while first > start and lines[first]:match("^" .. escape_pattern(name))
            and lines[first - 1]:match("^[%a_]")
            and not lines[first - 1]:match("[;{}]%s*$") do
          first = first - 1
        end
        for j = i, #lines do
          if lines[j]:match("^}") then
            last = j
            break
          end
        end
        if not last then
          fail(path, asked .. ": the definition of " .. fname(name) .. " at line " .. i ..
            " has no closing brace at column 0")
        end
      end
      if o.comment then
        local j = first - 1
        if j >= 1 and lines[j]:match("%*/%s*$") then
          while j >= 1 and not lines[j]:match("^%s*/%*") do
            j = j - 1
          end
          if j >= 1 then
            first = j
          end
        end
      end
      return first, last, kind
    end
  end
  local where = o.after and (" after the line with after=" .. q(o.after) .. " (line " .. (start - 1) .. ")") or ""
  fail(path, asked .. ": no definition of " .. fname(name) ..
    (o.kind and (" of kind=" .. q(o.kind)) or "") .. where)
end

-- The lines from the one line containing FROM through the first line
-- from there on containing TO, between lines A and B (SCOPE names them).
local function find_region(lines, from, to, a, b, path, asked, scope)
  local found = lines_with(lines, from, a, b)
  if #found == 0 then
    fail(path, asked .. ": from=" .. q(from) .. " is on no line of " .. scope)
  end
  if #found > 1 then
    fail(path, asked .. ": from=" .. q(from) .. " is on " .. #found .. " lines of " ..
      scope .. ": " .. list_numbers(found) .. "; from= must be on one line: make it distinctive")
  end
  local first = found[1]
  if not to then
    return first, first
  end
  for j = first, b do
    if lines[j]:find(to, 1, true) then
      return first, j
    end
  end
  fail(path, asked .. ": to=" .. q(to) .. " is on no line of " .. scope ..
    " from the from= line (" .. first .. ") on")
end

-- A patch, parsed: its files, each with the line of its "diff --git"
-- header, its ---/+++ lines and its hunks, each hunk the lines of its @@
-- header and its last line (found by the counts in the @@ header, so the
-- mail's "-- " signature is never part of the last hunk).
local function parse_patch(lines)
  local files = {}
  local cur
  local i = 1
  while i <= #lines do
    local l = lines[i]
    if l:match("^diff %-%-git ") then
      cur = { head = i, name = l:match(" b/(.*)$") or l, hunks = {} }
      table.insert(files, cur)
      i = i + 1
    elseif cur and not cur.minus and l:match("^%-%-%- ") then
      cur.minus = i
      i = i + 1
    elseif cur and not cur.plus and l:match("^%+%+%+ ") then
      cur.plus = i
      i = i + 1
    elseif cur and l:match("^@@ ") then
      local _, ob, _, nb = l:match("^@@ %-(%d+),?(%d*) %+(%d+),?(%d*) @@")
      ob = tonumber(ob ~= "" and ob or "1") or 1
      nb = tonumber(nb ~= "" and nb or "1") or 1
      local j = i
      while (ob > 0 or nb > 0) and j < #lines do
        j = j + 1
        local c = lines[j]:sub(1, 1)
        if c == " " or c == "" then
          ob, nb = ob - 1, nb - 1
        elseif c == "-" then
          ob = ob - 1
        elseif c == "+" then
          nb = nb - 1
        end
      end
      -- "\ No newline at end of file" belongs to the hunk.
      while j < #lines and lines[j + 1]:match("^\\") do
        j = j + 1
      end
      table.insert(cur.hunks, { first = i, last = j })
      cur.last = j
      i = j + 1
    else
      i = i + 1
    end
  end
  return files
end

local function patch_file(files, file, path, asked)
  for _, f in ipairs(files) do
    if f.name == file then
      return f
    end
  end
  fail(path, asked .. ": the patch has no hunks for " .. q(file))
end

local function extract_sections(lines, spec, path, asked)
  local parts = {}
  local files
  for s in spec:gmatch("[^,]+") do
    s = s:match("^%s*(.-)%s*$")
    if s == "message" then
      local last = #lines
      for i = 1, #lines do
        if lines[i]:match("^diff %-%-git ") then
          last = i - 1
          break
        end
      end
      table.insert(parts, join(lines, 1, last))
    elseif s:match("^diff:") then
      files = files or parse_patch(lines)
      local f = patch_file(files, s:sub(6), path, asked)
      table.insert(parts, join(lines, f.head, f.last or f.plus or f.head))
    else
      fail(path, asked .. ": unknown section " .. q(s) .. " (use message or diff:PATH)")
    end
  end
  return table.concat(parts, "\n")
end

-- The one hunk with TEXT in its lines; returns the listing and the file.
local function extract_hunk(lines, text, only, path, asked)
  local files = parse_patch(lines)
  if #files == 0 then
    fail(path, asked .. ": hunk= needs a patch, and this file has no \"diff --git\" lines")
  end
  if only then
    files = { patch_file(files, only, path, asked) }
  end
  local found = {}
  for _, f in ipairs(files) do
    for _, h in ipairs(f.hunks) do
      for j = h.first + 1, h.last do
        if lines[j]:find(text, 1, true) then
          table.insert(found, { file = f, hunk = h })
          break
        end
      end
    end
  end
  local within = only and (" of " .. only) or ""
  if #found == 0 then
    fail(path, asked .. ": no hunk" .. within .. " has a line with " .. q(text))
  end
  if #found > 1 then
    local where = {}
    for _, x in ipairs(found) do
      table.insert(where, x.file.name .. " " .. lines[x.hunk.first]:match("^(@@.-@@)"))
    end
    fail(path, asked .. ": " .. #found .. " hunks" .. within .. " have a line with " .. q(text) ..
      " (" .. table.concat(where, "; ") .. "), not one: use a more distinctive text" ..
      (only and "" or ', or section="diff:PATH"'))
  end
  local f, h = found[1].file, found[1].hunk
  local out = {}
  if f.minus then
    table.insert(out, lines[f.minus])
  end
  if f.plus then
    table.insert(out, lines[f.plus])
  end
  table.insert(out, join(lines, h.first, h.last))
  return table.concat(out, "\n"), f.name
end

-- "step 3" for a path in steps/03-slug/, else the path.
local function step_of(path)
  local n = path:match("^steps/(%d%d)%-[^/]+/")
  if n then
    return "step " .. tonumber(n)
  end
  return path
end

-- A path inside a step's tree, without the step: the file it names.
local function tree_file(path)
  return path:match("^steps/%d%d%-[^/]+/tree/(.*)$")
end

-- diff -u from OLD (text) to NEW (text), labelled with the paths; the
-- hunks' line numbers are moved by the lines above each function, so that
-- they are the files' own.
local function unified_diff(old, new, old_path, new_path, old_off, new_off, path, asked)
  local a, b = os.tmpname(), os.tmpname()
  write_file(a, old .. "\n")
  write_file(b, new .. "\n")
  local ok, res = pcall(pandoc.pipe, "diff",
    { "-u", "--label", old_path, "--label", new_path, a, b }, "")
  os.remove(a)
  os.remove(b)
  if ok then
    fail(path, asked .. ": the function is the same in " .. old_path ..
      " and in " .. path .. ": there is no diff to show (include the function instead)")
  end
  if type(res) ~= "table" or res.error_code ~= 1 then
    fail(path, asked .. ": diff failed: " .. tostring(type(res) == "table" and res.output or res))
  end
  local out = {}
  for _, l in ipairs(split_lines(res.output)) do
    local o1, o2, n1, n2, rest = l:match("^@@ %-(%d+)(,?%d*) %+(%d+)(,?%d*) @@(.*)$")
    if o1 then
      l = "@@ -" .. (tonumber(o1) + old_off) .. o2 .. " +" .. (tonumber(n1) + new_off) .. n2 .. " @@" .. rest
    end
    table.insert(out, l)
  end
  return table.concat(out, "\n")
end

local KNOWN = {
  include = true, ["function"] = true, kind = true, comment = true, section = true,
  caption = true, hunk = true, from = true, to = true, after = true, diff = true,
  numbers = true, table = true,
}
local REMOVED = {
  lines = 'lines= is gone: select by content, with function="NAME" or from="TEXT" to="TEXT"',
  occurrence = 'occurrence= is gone: use after="TEXT" (a line just before the definition, ' ..
    'e.g. after="#else /* _Q_PENDING_BITS == 1 */") or kind=',
  optional = "optional= is gone: every included file must exist (write the chapter once the step exists)",
}

-- What the block asked for, for the error messages: its attributes.
local function describe(el)
  local s = {}
  for k, v in pairs(el.attributes) do
    if k ~= "caption" then
      table.insert(s, k .. "=" .. q(v))
    end
  end
  return "{" .. table.concat(s, " ") .. "}"
end

local function label(shown, a, what)
  if a.caption and a.caption ~= "" then
    return a.caption
  end
  return shown .. what
end

local function boolean(path, a, key, asked)
  local v = a[key]
  if v == nil or v == "false" then
    return false
  end
  if v == "true" then
    return true
  end
  fail(path, asked .. ": " .. key .. "=" .. q(v) .. " is not \"true\" or \"false\"")
end

function CodeBlock(el)
  local path = el.attributes.include
  if not path then
    return nil
  end
  local asked = describe(el)
  local a = {}
  for k, v in pairs(el.attributes) do
    if REMOVED[k] then
      fail(path, asked .. ": " .. REMOVED[k])
    end
    if not KNOWN[k] then
      local names = {}
      for n in pairs(KNOWN) do
        table.insert(names, n .. "=")
      end
      table.sort(names)
      fail(path, asked .. ": unknown attribute " .. k .. "=" .. q(v) ..
        " (known: " .. table.concat(names, " ") .. ")")
    end
    a[k] = v
  end
  local fn = a["function"]
  local comment = boolean(path, a, "comment", asked)
  local numbers = boolean(path, a, "numbers", asked)
  local markdown = el.classes:includes("markdown")

  -- Which attributes go together.
  local function need(key, with)
    if a[key] and not a[with] then
      fail(path, asked .. ": " .. key .. "= needs " .. with .. "=")
    end
  end
  local function alone(key, others)
    if not a[key] then
      return
    end
    for _, o in ipairs(others) do
      if a[o] then
        fail(path, asked .. ": " .. key .. "= does not go with " .. o .. "=")
      end
    end
  end
  need("after", "function")
  need("diff", "function")
  need("kind", "function")
  need("comment", "function")
  need("to", "from")
  alone("function", { "section", "hunk" })
  alone("hunk", { "from", "numbers" })
  alone("section", { "from", "numbers" })
  alone("diff", { "from", "numbers" })
  alone("table", { "from", "function", "hunk", "section", "diff" })
  if a.table and not markdown then
    fail(path, asked .. ": table= selects a pipe table: write the block as {.markdown include=...}")
  end
  if a.kind and a.kind ~= "function" and a.kind ~= "macro" and a.kind ~= "type" then
    fail(path, asked .. ": kind=" .. q(a.kind) .. " is not function, macro or type")
  end
  if a.diff and not el.classes:includes("diff") then
    fail(path, asked .. ": a diff= listing is a diff: write the block as {.diff include=...}")
  end
  if numbers and markdown then
    fail(path, asked .. ": numbers= is for listings, not for a .markdown block")
  end

  local text = read_file(TOP .. "/" .. path)
  if not text then
    fail(path, asked .. ": no such file (include=" .. q(path) .. ")")
  end
  local lines = split_lines(text)
  local fopts = { kind = a.kind, comment = comment, after = a.after }
  local body, what, first, shown = nil, "", 1, path

  if a.diff then
    local old_text = read_file(TOP .. "/" .. a.diff)
    if not old_text then
      fail(path, asked .. ": no such file (diff=" .. q(a.diff) .. ")")
    end
    local old = split_lines(old_text)
    local of, ol = find_function(old, fn, fopts, a.diff, asked)
    local nf, nl = find_function(lines, fn, fopts, path, asked)
    body = unified_diff(join(old, of, ol), join(lines, nf, nl), a.diff, path,
      of - 1, nf - 1, path, asked)
    local file = tree_file(path)
    if file and tree_file(a.diff) == file then
      shown = file
      what = ": " .. fname(fn) .. ", " .. step_of(a.diff) .. " → " .. step_of(path)
    else
      what = ": " .. fname(fn) .. ", changes since " .. a.diff
    end
  elseif a.hunk then
    local only
    if a.section then
      only = a.section:match("^%s*diff:([^,]+)%s*$")
      if not only then
        fail(path, asked .. ': with hunk=, section= may only be one "diff:PATH"')
      end
    end
    local file
    body, file = extract_hunk(lines, a.hunk, only, path, asked)
    what = ": the hunk of " .. file .. " with " .. q(a.hunk)
  elseif a.table then
    local at = lines_with(lines, a.table, 1, #lines)
    if #at ~= 1 or not lines[at[1]]:match("^%s*|") then
      fail(path, asked .. ": table=" .. q(a.table) .. " is on " .. #at ..
        " lines, not on exactly one line of a pipe table")
    end
    local lo, hi = at[1], at[1]
    while lo > 1 and lines[lo - 1]:match("^%s*|") do
      lo = lo - 1
    end
    while hi < #lines and lines[hi + 1]:match("^%s*|") do
      hi = hi + 1
    end
    body = join(lines, lo, hi)
    what = ": the table with " .. q(a.table)
  elseif a.section then
    body = extract_sections(lines, a.section, path, asked)
    what = " (" .. a.section:gsub("diff:", "") .. ")"
  else
    local lo, hi, scope = 1, #lines, "the file"
    if fn then
      local kind
      lo, hi, kind = find_function(lines, fn, fopts, path, asked)
      scope = fname(fn) .. " (the " .. kind .. " at lines " .. lo .. "-" .. hi ..
        ((kind == "macro" and not a.kind) and '; kind="function" skips macros' or "") .. ")"
      what = ": " .. fname(fn)
      if a.after then
        what = what .. " after " .. q(a.after)
      end
    end
    if a.from then
      lo, hi = find_region(lines, a.from, a.to, lo, hi, path, asked, scope)
      what = what .. (fn and ", " or ": ") .. (a.to and ("from " .. q(a.from) .. " to " .. q(a.to))
        or ("the line with " .. q(a.from)))
      -- One or more rows of a pipe table: put its header back.
      if markdown and lines[lo]:match("^%s*|") then
        local top = lo
        while top > 1 and lines[top - 1]:match("^%s*|") do
          top = top - 1
        end
        if top + 1 < lo and lines[top + 1]:match("^%s*|[%s%-:|]+$") then
          body = join(lines, top, top + 1) .. "\n" .. join(lines, lo, hi)
        end
      end
    end
    body = body or join(lines, lo, hi)
    first = lo
  end

  if markdown then
    local blocks = pandoc.read(body, "markdown").blocks
    table.insert(blocks, 1, pandoc.Para({ pandoc.Code(label(shown, a, what)) }))
    return pandoc.Div(blocks, pandoc.Attr("", { "listing", "included" }))
  end
  for k in pairs(a) do
    el.attributes[k] = nil
  end
  if numbers then
    el.classes:insert("numberLines")
    el.attributes.startFrom = tostring(first)
  end
  el.text = body
  return pandoc.Div({
    pandoc.Para({ pandoc.Code(label(shown, a, what)) }),
    el,
  }, pandoc.Attr("", { "listing" }))
end

--[[
Chapter names.  A chapter is named, never numbered (book/index.md says
so): a step's chapter by its step, as its title begins ("Step 7: ..."),
the other chapters by their titles, the appendices by their letters.
The step of each file is its line's step column in book/chapters.tsv.

  [step](step7-16bit-tail.html)      reads "step 7" ("[Step](...)":
                                     "Step 7"); the number is the step
                                     column of the page's line
  [step 7's table](step7-...html)    a link whose text begins "step N"
                                     (or "Step N") must lead to step N's
                                     chapter

Each of these stops the build, naming the chapter and what to write
instead: a link to a chapter whose text is "chapter" or "chapter N" (the
numbers no page shows); [step](X) or "step N" on a link to a chapter of
another step or of none; and the word "chapter" or "chapters" followed by
a number anywhere in the prose ("chapter 7"), typed or linked.
]]
local chapter_step
local function chapter_steps()
  if chapter_step then
    return chapter_step
  end
  chapter_step = {}
  local text = read_file(TOP .. "/book/chapters.tsv")
  if not text then
    error("\nbook: book/chapters.tsv is missing\n", 0)
  end
  for line in text:gmatch("[^\n]+") do
    local f, s = line:match("^([^\t#][^\t]*%.md)\t([^\t\r]*)")
    if f then
      chapter_step[(f:gsub("%.md$", ".html"))] = s
    end
  end
  return chapter_step
end

local function name_error(msg)
  error("\nbook: " .. table.concat(PANDOC_STATE.input_files, ", ") .. ": " .. msg ..
    " (a chapter is named, never numbered: book/index.md)\n", 0)
end

-- What a link to PAGE, whose step is STEP ("-": none), should say.
local function how_to_name(page, step)
  if step ~= "-" then
    return "write [step](" .. page .. "), which reads \"step " .. step .. "\""
  end
  return "name the chapter by its title, as in [the epilogue](upstream.html)"
end

function Link(el)
  local page = el.target:gsub("#.*$", "")
  local step = chapter_steps()[page]
  if step == nil then
    return nil
  end
  local text = pandoc.utils.stringify(el.content)
  if text:match("^[Cc]hapters?%s*%d*$") then
    name_error("the link [" .. text .. "](" .. el.target .. ") names a chapter by its number; " ..
      how_to_name(page, step))
  end
  if text == "step" or text == "Step" then
    if step == "-" then
      name_error("the link [" .. text .. "](" .. el.target .. "): " .. page ..
        " is no step's chapter (book/chapters.tsv); " .. how_to_name(page, step))
    end
    el.content = { pandoc.Str(text), pandoc.Space(), pandoc.Str(step) }
    return el
  end
  local n = text:match("^[Ss]tep (%d+)%f[^%d]")
  if n and n ~= step then
    name_error("the link [" .. text .. "](" .. el.target .. ") says step " .. n .. ", but " .. page ..
      " is " .. (step == "-" and "no step's chapter" or "step " .. step .. "'s") ..
      " (book/chapters.tsv); " .. how_to_name(page, step))
  end
  return nil
end

-- "chapter 7" in the prose, typed or in a link's text.
function Inlines(inlines)
  for i = 1, #inlines - 2 do
    local a, gap, b = inlines[i], inlines[i + 1], inlines[i + 2]
    if a.t == "Str" and (gap.t == "Space" or gap.t == "SoftBreak") and b.t == "Str"
        and a.text:match("%f[%a][Cc]hapters?$") and b.text:match("^%d") then
      name_error("\"" .. a.text .. " " .. b.text .. "\" names a chapter by its number; " ..
        "link to it as [step](stepN-....html), or by its title")
    end
  end
  return nil
end

--[[
Reading time.  The contents page (book/index.md) says how long the book
takes to read, counted from the chapters each time the book is rendered,
never typed by hand.  A span with one of these classes is replaced:

  [x]{.book-words of="chapters"}         the words of the chapters, with a
                                         comma every three digits
  [x]{.book-reading-time of="chapters"}  "about 3 hours 20 minutes", at
                                         WORDS_PER_MINUTE, rounded to five
                                         minutes
  [x]{.book-words-per-minute}            WORDS_PER_MINUTE itself

of= is "chapters" (every file of book/chapters.tsv whose kicker does not
begin with "Appendix"), "appendices" (those whose kicker does) or "all".
A word is a run of text with a letter or a digit in it, in the prose,
headings, tables and inline code of a chapter's Markdown, read with
pandoc's own reader; code blocks (every include block is one before this
filter replaces it) and the YAML front matter do not count, so the
included code and recorded runs are not in the count.
]]
local WORDS_PER_MINUTE = 200

local word_counts
local function count_words()
  if word_counts then
    return word_counts
  end
  local text = read_file(TOP .. "/book/chapters.tsv")
  if not text then
    error("\nbook: book/chapters.tsv is missing\n", 0)
  end
  word_counts = { chapters = 0, appendices = 0, all = 0 }
  for line in text:gmatch("[^\n]+") do
    local f = line:match("^([^\t#][^\t]*%.md)\t")
    if f then
      local md = read_file(TOP .. "/book/" .. f)
      if not md then
        error("\nbook: book/chapters.tsv lists " .. f .. ", which does not exist\n", 0)
      end
      local doc = pandoc.read(md, "markdown")
      local n = 0
      local function words(s)
        for w in s:gmatch("%S+") do
          if w:find("%w") then
            n = n + 1
          end
        end
      end
      pandoc.Div(doc.blocks):walk({
        Str = function(el) words(el.text) end,
        Code = function(el) words(el.text) end,
      })
      local kicker = doc.meta.kicker and pandoc.utils.stringify(doc.meta.kicker) or ""
      local part = kicker:match("^Appendix") and "appendices" or "chapters"
      word_counts[part] = word_counts[part] + n
      word_counts.all = word_counts.all + n
    end
  end
  return word_counts
end

local function with_commas(n)
  local s = tostring(n)
  local out = s:reverse():gsub("(%d%d%d)", "%1,"):reverse()
  return (out:gsub("^,", ""))
end

local function duration(words)
  local minutes = math.floor(words / WORDS_PER_MINUTE / 5 + 0.5) * 5
  if minutes < 5 then
    minutes = 5
  end
  local h, m = math.floor(minutes / 60), minutes % 60
  local parts = {}
  if h > 0 then
    table.insert(parts, h .. (h == 1 and " hour" or " hours"))
  end
  if m > 0 then
    table.insert(parts, m .. " minutes")
  end
  return "about " .. table.concat(parts, " ")
end

-- A number the prose quotes from a recorded file, checked against it:
--   [1,841]{.recorded file="book/runs/exp-no-wmb-claim.txt"
--           find="execution (%d+)"}
-- FIND is a Lua pattern with one capture, matched against the file's text
-- (its first match, or with line="N" the first on line N); the span's text,
-- commas aside, must be what it captures, or the build stops and says what
-- the file holds.  The span is shown as written.  So a file recorded again
-- (make book-runs) cannot leave an old number in the prose.
local function recorded(el)
  local where = table.concat(PANDOC_STATE.input_files, ", ")
  local path, find = el.attributes.file, el.attributes.find
  local said = pandoc.utils.stringify(el.content)
  if not path or not find then
    error("\nbook: " .. where .. ": a .recorded span (" .. q(said) .. ") needs file= and find=\n", 0)
  end
  local text = read_file(repo_root() .. "/" .. path)
  if not text then
    fail(path, "a .recorded span (" .. q(said) .. ") names a file that does not exist")
  end
  if el.attributes.line then
    local lines = split_lines(text)
    text = lines[tonumber(el.attributes.line)] or ""
  end
  local ok, got = pcall(string.match, text, find)
  if not ok or not got then
    fail(path, "a .recorded span (" .. q(said) .. "): find=" .. q(find)
      .. (ok and " matches nothing in the file" or " is not a Lua pattern with one capture"))
  end
  if said:gsub(",", "") ~= got:gsub(",", "") then
    fail(path, "the prose says " .. q(said) .. " where the file holds " .. q(got)
      .. " (find=" .. q(find) .. "): the file was recorded again; say what it holds")
  end
  return el.content
end

function Span(el)
  if el.classes:includes("recorded") then
    return recorded(el)
  end
  local words = el.classes:includes("book-words")
  local time = el.classes:includes("book-reading-time")
  if el.classes:includes("book-words-per-minute") then
    return pandoc.Str(tostring(WORDS_PER_MINUTE))
  end
  if not words and not time then
    return nil
  end
  local of = el.attributes.of
  local counts = count_words()
  if not of or not counts[of] then
    error("\nbook: " .. table.concat(PANDOC_STATE.input_files, ", ") .. ": a ." ..
      (words and "book-words" or "book-reading-time") .. " span needs of=\"chapters\", " ..
      "of=\"appendices\" or of=\"all\" (it has " .. (of and q(of) or "none") .. ")\n", 0)
  end
  if words then
    return pandoc.Str(with_commas(counts[of]))
  end
  local inlines = {}
  for w in duration(counts[of]):gmatch("%S+") do
    if #inlines > 0 then
      table.insert(inlines, pandoc.Space())
    end
    table.insert(inlines, pandoc.Str(w))
  end
  return inlines
end
