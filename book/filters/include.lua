--[[
include.lua - pull code into the book from the repository, never paste it.

A code block whose attributes name a file is replaced by that file, or by
part of it:

  ```{.diff include="steps/03-pending-bit/0003-pending-bit.patch"}
  ```
  ```{.c include="steps/03-pending-bit/tree/kernel/locking/qspinlock.c"
         function="try_set_pending"}
  ```

Attributes:
  include="PATH"    the file, relative to the repository root (required)
  function="NAME"   a C function, macro or struct/union/enum: from the
                    first line of its definition to the closing brace at
                    column 0 (a macro: to its last continued line);
                    "struct NAME" and friends select a type
  occurrence="N"    the Nth definition of NAME (#if branches), default 1
  kind="K"          count only definitions of kind K: function, macro or
                    type (a function and a macro of the same name, as in
                    "#define foo foo" before "static void foo(...)")
  comment="true"    also take the comment block right above the definition
  lines="A-B"       lines A to B of the file (1-based, inclusive)
  section="S,..."   parts of a patch, in the order given: "message" is the
                    mail header, commit message and diffstat; "diff:PATH"
                    is every hunk of the file PATH
  optional="true"   a file that does not exist yet (a step still to come)
                    becomes a note instead of an error; anything else
                    missing, a function or a section, is still an error
  caption="TEXT"    the label shown above the listing, instead of the
                    file name and what was taken from it

A block of class .markdown is not a listing: the file (or the part taken)
is read as Markdown and its blocks replace the code block, under the same
label.  The benchmark tables in book/bench/ come in this way, as a run
wrote them, so no number is copied by hand.

Anything missing stops pandoc with an error naming the chapter, the file
and what was asked for.  The repository root is $QSL_TOP, or two levels
above this filter (book/filters/).
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

local function extract_function(lines, name, occurrence, comment, path, want)
  local seen = 0
  for i = 1, #lines do
    local kind = defines(lines, i, name)
    if kind and want and kind ~= want then
      kind = nil
    end
    if kind then
      seen = seen + 1
      if seen == occurrence then
        local first, last = i, nil
        if kind == "macro" then
          last = i
          while lines[last]:match("\\%s*$") and last < #lines do
            last = last + 1
          end
        else
          -- The return type may sit on the line(s) above the name.
          while first > 1 and lines[first]:match("^" .. escape_pattern(name))
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
            fail(path, "the definition of '" .. name .. "' at line " .. i ..
              " has no closing brace at column 0")
          end
        end
        if comment then
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
        return join(lines, first, last)
      end
    end
  end
  if seen == 0 then
    fail(path, "no definition of '" .. name .. "' found" ..
      (want and (" (kind=" .. want .. ")") or ""))
  end
  fail(path, "asked for definition " .. occurrence .. " of '" .. name ..
    "', but there are only " .. seen)
end

local function extract_lines(lines, spec, path)
  local a, b = spec:match("^(%d+)%-(%d+)$")
  if not a then
    a = spec:match("^(%d+)$")
    b = a
  end
  if not a then
    fail(path, "lines=\"" .. spec .. "\" is not of the form A-B")
  end
  a, b = tonumber(a), tonumber(b)
  if a < 1 or b < a or b > #lines then
    fail(path, "lines=\"" .. spec .. "\" is outside the file's " .. #lines .. " lines")
  end
  return join(lines, a, b)
end

local function extract_sections(lines, spec, path)
  local parts = {}
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
      local file = s:sub(6)
      local head = "diff --git a/" .. file .. " b/"
      local first
      for i = 1, #lines do
        if lines[i]:sub(1, #head) == head then
          first = i
          break
        end
      end
      if not first then
        fail(path, "the patch has no hunks for '" .. file .. "' (section=\"" .. s .. "\")")
      end
      local last = #lines
      for i = first + 1, #lines do
        if lines[i]:match("^diff %-%-git ") then
          last = i - 1
          break
        end
      end
      table.insert(parts, join(lines, first, last))
    else
      fail(path, "unknown section \"" .. s .. "\" (use message or diff:PATH)")
    end
  end
  return table.concat(parts, "\n")
end

local function truthy(v)
  return v == "true" or v == "yes" or v == "1"
end

local function label(path, attrs)
  if attrs.caption and attrs.caption ~= "" then
    return attrs.caption
  end
  local what = ""
  if attrs["function"] then
    what = ": " .. attrs["function"] .. (attrs["function"]:match("^%a+ ") and "" or "()")
  elseif attrs.lines then
    what = ", lines " .. attrs.lines
  elseif attrs.section then
    what = " (" .. attrs.section:gsub("diff:", "") .. ")"
  end
  return path .. what
end

local KEYS = { "include", "function", "occurrence", "kind", "comment", "lines",
  "section", "optional", "caption" }

function CodeBlock(el)
  local path = el.attributes.include
  if not path then
    return nil
  end
  local attrs = {}
  for _, k in ipairs(KEYS) do
    attrs[k] = el.attributes[k]
  end
  local full = TOP .. "/" .. path
  local text = read_file(full)
  if not text then
    if truthy(attrs.optional) then
      return pandoc.Div({
        pandoc.Para({ pandoc.Emph({ pandoc.Str("Not in the repository yet:") }),
          pandoc.Space(), pandoc.Code(path) })
      }, pandoc.Attr("", { "listing", "missing" }))
    end
    fail(path, "no such file (include=\"" .. path .. "\")")
  end
  local lines = split_lines(text)
  local picked = 0
  for _, k in ipairs({ "function", "lines", "section" }) do
    if attrs[k] then
      picked = picked + 1
    end
  end
  if picked > 1 then
    fail(path, "use only one of function=, lines= and section=")
  end
  local body
  if attrs["function"] then
    local occ = tonumber(attrs.occurrence or "1")
    if not occ or occ < 1 then
      fail(path, "occurrence=\"" .. attrs.occurrence .. "\" is not a positive number")
    end
    local want = attrs.kind
    if want and want ~= "function" and want ~= "macro" and want ~= "type" then
      fail(path, "kind=\"" .. want .. "\" is not function, macro or type")
    end
    body = extract_function(lines, attrs["function"], occ, truthy(attrs.comment), path, want)
  elseif attrs.lines then
    body = extract_lines(lines, attrs.lines, path)
  elseif attrs.section then
    body = extract_sections(lines, attrs.section, path)
  else
    body = join(lines, 1, #lines)
  end
  if el.classes:includes("markdown") then
    local blocks = pandoc.read(body, "markdown").blocks
    table.insert(blocks, 1, pandoc.Para({ pandoc.Code(label(path, attrs)) }))
    return pandoc.Div(blocks, pandoc.Attr("", { "listing", "included" }))
  end
  for _, k in ipairs(KEYS) do
    el.attributes[k] = nil
  end
  el.text = body
  return pandoc.Div({
    pandoc.Para({ pandoc.Code(label(path, attrs)) }),
    el,
  }, pandoc.Attr("", { "listing" }))
end
