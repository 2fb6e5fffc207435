echo "GET http://127.0.0.1:34123/slow" | vegeta attack -max-body 0 -duration=1s -rate=100/s -timeout=20ms -output timeout.bin; vegeta report -type=text timeout.bin
# captured as: (command) > vegeta-12.13.0__timeout_text.txt
# exit code: 0
