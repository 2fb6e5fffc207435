echo "GET http://127.0.0.1:34123/mixed" | vegeta attack -max-body 0 -duration=2s -rate=200/s -redirects=-1 -output non2xx.bin; { vegeta report -type=json non2xx.bin; vegeta report -type='hist[0,1ms,2ms,5ms,10ms,50ms]' non2xx.bin; }
# captured as: (command) > vegeta-12.13.0__non2xx_rundir.txt
# exit code: 0
