echo "GET http://127.0.0.1:56597/" | vegeta attack -max-body 0 -duration=1s -rate=200/s -output refused.bin; vegeta report -type='hist[0,1ms,2ms,5ms,10ms,50ms]' refused.bin
# captured as: (command) > vegeta-12.13.0__refused_hist.txt
# exit code: 0
