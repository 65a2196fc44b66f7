# Summarises /proc/PID/smaps (busybox awk in the e2e guest, or any awk):
# resident kB per mapped object and permissions (r-xp: code, r--p: read-only
# data, rw-p: data and relocated pointers), then the total. Anonymous
# mappings are "[anon]"; a file's private dirty pages (relocations, .data)
# count under the file. Mappings with no resident pages are listed with their
# size when they are device memory (/dev/...), e.g. DRM dumb buffers.
/^[0-9a-f]+-[0-9a-f]+ / {
    name = (($6 == "") ? "[anon]" : $6) " " $2
    next
}
/^Size:/ { size[name] += $2; next }
/^Rss:/ { rss[name] += $2; total += $2; next }
/^Private_Dirty:/ { dirty[name] += $2; next }
END {
    for (n in rss) {
        if (rss[n] > 0 || n ~ /^\/dev\//)
            printf "SMAPS %7d kB rss %7d kB private-dirty %8d kB mapped  %s\n", rss[n], dirty[n], size[n], n
    }
    printf "SMAPS %7d kB rss total\n", total
}
