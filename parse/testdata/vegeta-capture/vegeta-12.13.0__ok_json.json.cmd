echo "GET http://127.0.0.1:34123/" | vegeta attack -max-body 0 -duration=2s -rate=500/s -output ok.bin; vegeta report -type=json ok.bin
# captured as: (command) > vegeta-12.13.0__ok_json.json
# exit code: 0
