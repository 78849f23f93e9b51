#!/usr/bin/env bash
# The pinned upstream docs beside the checkout (../shared/upstream/<tag>), as on the
# project's machines: a sparse, shallow clone of the tag in upstream.toml.
set -euo pipefail
cd "$(dirname "$0")/.."
tag=$(sed -n 's/^tag = "\(.*\)"$/\1/p' upstream.toml)
repo=$(sed -n 's/^repository = "\(.*\)"$/\1/p' upstream.toml)
dest="$PWD/../shared/upstream/$tag"
if [ ! -d "$dest/docs" ]; then
  git clone --quiet --depth 1 --branch "$tag" --filter=blob:none --sparse "$repo" "$dest"
  git -C "$dest" sparse-checkout set docs
fi
