echo "GET http://127.0.0.1:34123/slow" | vegeta attack -max-body 0 -duration=1s -rate=100/s -timeout=20ms -output timeout.bin; { vegeta report -type=json timeout.bin; vegeta report -type='hist[0,1ms,2ms,5ms,10ms,50ms]' timeout.bin; }
# captured as: (command) > vegeta-12.13.0__timeout_rundir.txt
# exit code: 0
