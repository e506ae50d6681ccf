-- wrk script: counts the responses by status (200, 403, 404, 503, other) over all threads and prints
-- them at the end, e.g.  wrk -t2 -c1000 -d5s -s zerocopy-benchmarks/http/wrk-statuses.lua http://127.0.0.1:8080/a.bin
-- With WRK_FILES=N set, each request asks for /f<K>.bin, K drawn from 0 to N-1 (a cache of open
-- files then holds as many as it may). Each thread seeds its own draws: unseeded, every thread
-- drew the same sequence, each file was soon asked for again by the other threads, and a cache
-- hit on the repeats.
local threads = {}
local files = tonumber(os.getenv("WRK_FILES") or "")

function request()
  if files then
    return wrk.format(nil, "/f" .. math.random(0, files - 1) .. ".bin")
  end
  return wrk.format()
end

function setup(thread)
  table.insert(threads, thread)
  thread:set("seed", #threads)
end

function init(args)
  math.randomseed(seed)
  s200, s403, s404, s503, other = 0, 0, 0, 0, 0
end

function response(status, headers, body)
  if status == 200 then s200 = s200 + 1
  elseif status == 403 then s403 = s403 + 1
  elseif status == 404 then s404 = s404 + 1
  elseif status == 503 then s503 = s503 + 1
  else other = other + 1 end
end

function done(summary, latency, requests)
  local t = {s200 = 0, s403 = 0, s404 = 0, s503 = 0, other = 0}
  for _, thread in ipairs(threads) do
    for k, _ in pairs(t) do t[k] = t[k] + thread:get(k) end
  end
  io.write(string.format("statuses: 200=%d 403=%d 404=%d 503=%d other=%d\n",
    t.s200, t.s403, t.s404, t.s503, t.other))
end
