echo "GET http://127.0.0.1:34123/serial" | vegeta attack -max-body 0 -duration=2s -rate=500/s -max-workers=4 -output behind.bin; { vegeta report -type=json behind.bin; vegeta report -type='hist[0,1ms,2ms,5ms,10ms,50ms]' behind.bin; }
# captured as: (command) > vegeta-12.13.0__behind_rundir.txt
# exit code: 0
