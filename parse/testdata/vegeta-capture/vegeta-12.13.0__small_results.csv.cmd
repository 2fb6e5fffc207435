echo "GET http://127.0.0.1:34123/" | vegeta attack -max-body 0 -duration=200ms -rate=50/s -output small.bin; vegeta encode -to csv small.bin
# captured as: (command) > vegeta-12.13.0__small_results.csv
# exit code: 0
