#!/usr/bin/env bash
# Debian's Chromium (or $OPSTATION_CHROMIUM) for the console e2e tests, without the browser UI no test uses: the
# omnibox popup's WebUI, which Chromium preloads for every new window (each test's browser context opens one) in a
# renderer of its own. The whole e2e run took 197 CPU-s with it and 144 without (the browser and GPU processes did
# less too; 48 tests, two sequential runs of `CI=true npx playwright test`, the per-process CPU sampled).
# Chromium reads only the last --disable-features switch, so the features Playwright disables and these go as one.
set -euo pipefail
disabled="WebUIOmniboxPopup,WebUIOmniboxAimPopup"
args=()
for arg in "$@"; do
  case "$arg" in
    --disable-features=*) disabled="${arg#--disable-features=},${disabled}" ;;
    *) args+=("$arg") ;;
  esac
done
exec "${OPSTATION_CHROMIUM:-/usr/bin/chromium}" "${args[@]}" "--disable-features=${disabled}"
