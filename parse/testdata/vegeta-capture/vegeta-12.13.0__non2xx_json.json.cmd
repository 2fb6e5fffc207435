echo "GET http://127.0.0.1:34123/mixed" | vegeta attack -max-body 0 -duration=2s -rate=200/s -redirects=-1 -output non2xx.bin; vegeta report -type=json non2xx.bin
# captured as: (command) > vegeta-12.13.0__non2xx_json.json
# exit code: 0
