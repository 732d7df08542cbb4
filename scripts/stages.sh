# Stage timing shared by the test scripts (sourced).
times=()
stage_start=$SECONDS
stage() { # name: closes the running stage
  times+=("$(printf '%-28s %4ds' "$1" $((SECONDS - stage_start)))")
  stage_start=$SECONDS
}
report() {
  echo "---- $(basename "$0") stage times"
  printf '  %s\n' "${times[@]}"
  echo "  total                        ${SECONDS}s"
}
trap report EXIT
