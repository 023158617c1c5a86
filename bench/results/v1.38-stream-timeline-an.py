import numpy as np, sys
W=10
def load(fn, nb):
    d = open(fn,'rb').read()
    rec = 8 + 32768*W*8
    out = []
    for k in range(len(d)//rec):
        us = np.frombuffer(d[k*rec:k*rec+8], dtype=np.float64)[0]
        tl = np.frombuffer(d[k*rec+8:(k+1)*rec], dtype=np.uint64).reshape(32768,W)[:nb].astype(np.int64)
        out.append((us, tl))
    return out
fn, nb = sys.argv[1], int(sys.argv[2])
smp = load(fn, nb)
R = {}
def add(k, v): R.setdefault(k, []).append(v)
for us, tl in smp:
    L = tl[nb-1]; oth = np.delete(tl[:,4], nb-1).max()
    add('ev', us)
    add('ready->allfold', (L[2]-L[0])/1e3)
    add('allfold->breduce', (L[3]-L[2])/1e3)
    add('final breduce clk(us@2GHz)', L[8]/2e3)
    add('breduce->end', (L[4]-L[3])/1e3)
    add('lastother-ready', (oth-L[0])/1e3)
    add('end-lastother', (L[4]-oth)/1e3)
    add('read breduce clk med all', np.median(tl[:,9])/2e3)
    add('read breduce clk last', L[9]/2e3)
print(fn)
for k, v in R.items():
    v = np.array(v)
    print(f'  {k:28s} med {np.median(v):8.3f}  min {v.min():8.3f}  max {v.max():8.3f}')
