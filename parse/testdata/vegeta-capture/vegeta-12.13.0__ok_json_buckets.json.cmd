vegeta report -type=json -buckets '[0,1ms,2ms,5ms,10ms,50ms]' vegeta-12.13.0__ok_results.csv
# captured as: (command) > vegeta-12.13.0__ok_json_buckets.json
# exit code: 0
