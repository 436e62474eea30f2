# Sourced by ci/debian_arch.sh and ci/cross_aarch64.sh: where this machine's apt gets Debian from.

# The first Debian (non-security) mirror in apt's sources, deb822 or one-line format.
debian_mirror() {
    local file uri
    for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
        /etc/apt/sources.list.d/*.list; do
        [[ -f $file ]] || continue
        if [[ $file == *.sources ]]; then
            uri=$(awk '/^URIs:/ {for (i = 2; i <= NF; i++) print $i}' "$file")
        else
            uri=$(awk '$1 == "deb" {for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) {print $i; break}}' \
                "$file")
        fi
        uri=$(grep -v -e security -e '^$' <<<"$uri" | grep -m1 debian || true)
        if [[ -n $uri ]]; then echo "$uri"; return; fi
    done
    echo "http://deb.debian.org/debian"
}
