echo "GET http://127.0.0.1:34123/" | vegeta attack -max-body 0 -duration=2s -rate=500/s -output ok.bin; vegeta report -type='hist[0,1ms,2ms,5ms,10ms,50ms]' ok.bin
# captured as: (command) > vegeta-12.13.0__ok_hist.txt
# exit code: 0
