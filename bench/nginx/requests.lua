-- requests.lua - wrk sends the request lines of UTF8GUARD_BENCH_REQUESTS
-- (one "METHOD TARGET HTTP/1.1" a line) in turn, each with a dozen ordinary
-- headers; HEAD goes as GET, since wrk's parser would wait for the body that
-- a HEAD response's Content-Length announces. With UTF8GUARD_BENCH_FORM=N
-- instead: a POST of an N-byte application/x-www-form-urlencoded body made
-- of those targets' queries, or with UTF8GUARD_BENCH_FORM_TEXT=FILE too, of
-- that text's lines form-encoded, each a field "text" (mostly ASCII for a
-- Latin text, as most forms are). With UTF8GUARD_BENCH_MULTIPART=N: a
-- browser's multipart/form-data upload of an N-byte binary file (random
-- bytes, as compressed images are) and three text fields in several scripts,
-- the body bench/multipart_bench.cpp times.
local headers = {
  ["Host"] = "bench.example",
  ["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Firefox/115.0",
  ["Accept"] = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  ["Accept-Language"] = "de-CH,fr;q=0.8,ja;q=0.6,en;q=0.4",
  ["Accept-Encoding"] = "gzip, deflate, br",
  ["Referer"] = "https://bench.example/%E6%A4%9C%E7%B4%A2?q=caf%C3%A9",
  ["Cookie"] = "session=4f2a9c1e7b; lang=ja; theme=dark; cart=3",
  ["Cache-Control"] = "no-cache",
  ["Pragma"] = "no-cache",
  ["Upgrade-Insecure-Requests"] = "1",
  ["X-Request-Id"] = "b7e2c1d4-5a6f-4e3b-9c8d-7f1e2a3b4c5d",
  ["X-Forwarded-For"] = "203.0.113.7",
}

local path = os.getenv("UTF8GUARD_BENCH_REQUESTS")
local lines = {}
for line in io.lines(path) do
  local method, target = line:match("^(%u+) (%S+)")
  if method == "HEAD" then method = "GET" end
  if method then lines[#lines + 1] = {method, target} end
end

local requests = {}
local form = tonumber(os.getenv("UTF8GUARD_BENCH_FORM") or "")
-- form_encode: ' ' as '+', bytes other than ASCII letters, digits and
-- -._~ as %XX.
local function form_encode(text)
  text = text:gsub("[^%w%-%._~ ]", function(c) return string.format("%%%02X", c:byte()) end)
  return (text:gsub(" ", "+"))
end

local multipart = tonumber(os.getenv("UTF8GUARD_BENCH_MULTIPART") or "")
local boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW"

-- multipart_field: one text field of the upload.
local function multipart_field(name, value)
  return "--" .. boundary .. "\r\nContent-Disposition: form-data; name=\"" .. name ..
         "\"\r\n\r\n" .. value .. "\r\n"
end

-- random_file: n bytes of a xorshift generator (LuaJIT's bit library): no
-- delimiter, which needs "\r\n--" and the boundary's 38 bytes in a row.
local function random_file(n)
  local bytes, x = {}, 0x2545F491
  for i = 1, n do
    x = bit.bxor(x, bit.lshift(x, 13))
    x = bit.bxor(x, bit.rshift(x, 17))
    x = bit.bxor(x, bit.lshift(x, 5))
    bytes[i] = string.char(bit.rshift(x, 24))
  end
  return table.concat(bytes)
end

if multipart then
  local body = multipart_field("title", "Vacances d\195\169t\195\169 \226\128\148 Z\195\188rich") ..
    multipart_field("caption", "\229\164\143\228\188\145\227\129\191\227\129\174\229\134\153\231\156\159 \209\132\208\190\209\130\208\190\208\179\209\128\208\176\209\132\208\184\209\143") ..
    multipart_field("tags", "summer, lake, \216\181\217\138\217\129") ..
    "--" .. boundary .. "\r\nContent-Disposition: form-data; name=\"photo\"; " ..
    "filename=\"\230\185\150.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n" ..
    random_file(multipart) .. "\r\n--" .. boundary .. "--\r\n"
  local h = {}
  for k, v in pairs(headers) do h[k] = v end
  h["Content-Type"] = "multipart/form-data; boundary=" .. boundary
  requests[1] = wrk.format("POST", "/upload", h, body)
elseif form then
  local fields = {}
  local text = os.getenv("UTF8GUARD_BENCH_FORM_TEXT")
  if text then
    for line in io.lines(text) do fields[#fields + 1] = "text=" .. form_encode(line) end
  else
    for _, l in ipairs(lines) do fields[#fields + 1] = l[2]:match("%?(.*)") or "a=b" end
  end
  local parts, size, i = {}, 0, 0
  while size < form do
    i = i % #fields + 1
    parts[#parts + 1] = fields[i]
    size = size + #fields[i] + 1
  end
  local body = table.concat(parts, "&"):sub(1, form)
  body = body:gsub("%%%x?$", "")  -- never end inside an escape
  local h = {}
  for k, v in pairs(headers) do h[k] = v end
  h["Content-Type"] = "application/x-www-form-urlencoded"
  requests[1] = wrk.format("POST", "/form", h, body)
else
  for i, l in ipairs(lines) do
    local body = nil
    if l[1] == "POST" then body = "" end
    requests[i] = wrk.format(l[1], l[2], headers, body)
  end
end

local n = 0
request = function()
  n = n % #requests + 1
  return requests[n]
end
