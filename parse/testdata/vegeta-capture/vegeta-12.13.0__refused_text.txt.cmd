echo "GET http://127.0.0.1:56597/" | vegeta attack -max-body 0 -duration=1s -rate=200/s -output refused.bin; vegeta report -type=text refused.bin
# captured as: (command) > vegeta-12.13.0__refused_text.txt
# exit code: 0
