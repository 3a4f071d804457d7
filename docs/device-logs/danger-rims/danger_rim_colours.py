# The colour of each labelled danger sign's rim, split by whether the fit from its own label box passes
# (diagnose_real --oracle-only --per-sign). For each sign: the 30 % reddest pixels (red minus the larger of green
# and blue) of a triangular band from the label box's outline to 0.62 of it, their median hue (degrees, negative:
# towards magenta), saturation and value (HSV, 0-1) and redness (0-255), and the median brightness of the middle
# of the face. Usage: python3 danger_rim_colours.py PER_SIGN_CSV [CATEGORY] [DATA_DIR]
import cv2, numpy as np, csv, sys
DATA = sys.argv[3] if len(sys.argv) > 3 else '../shared/data/gtsdb-dev'
lab=[r for r in csv.reader(open(DATA+'/labels.csv'),delimiter=';')]
orc={}
for r in csv.reader(open(sys.argv[1] if len(sys.argv)>1 else '/tmp/oracle.csv')):
    if r[0]=='image': continue
    orc.setdefault((r[0],r[1],r[2]),[]).append(int(r[5]))
def inside(u,v,s):
    ax,ay=0.5,0.5-(0.5-0.03)*s; by=0.5+(0.93-0.5)*s; half=0.5*s
    return (v<=by)&(v>=ay)&(abs(u-0.5)<= half*(v-ay)/(by-ay))
def stats(im,l,t,rr,b):
    crop=im[t:b+1,l:rr+1].astype(np.float32)
    h,w=crop.shape[:2]
    yy,xx=np.mgrid[0:h,0:w]; u=(xx+0.5)/w; v=(yy+0.5)/h
    ring=inside(u,v,1.0)&~inside(u,v,0.62)
    inner=inside(u,v,0.5)
    px=crop[ring]
    B,G,R=px[:,0],px[:,1],px[:,2]
    redness=R-np.maximum(G,B)
    k=max(3,int(0.3*len(px)))
    idx=np.argsort(-redness)[:k]
    hsv=cv2.cvtColor(px[idx].reshape(-1,1,3).astype(np.uint8),cv2.COLOR_BGR2HSV).reshape(-1,3).astype(float)
    hue=hsv[:,0]*2; hue=np.where(hue>180,hue-360,hue)
    ip=crop[inner]; iv=np.median(ip.max(1))/255
    return np.median(hue), np.median(hsv[:,1])/255, np.median(hsv[:,2])/255, np.median(redness[idx]), iv
rows=[]
cat=sys.argv[2] if len(sys.argv)>2 else 'danger'
for r in lab:
    if r[6]!=cat: continue
    stem=r[0]; l,t,rr,b=map(int,r[1:5]); w=rr-l+1
    ok=orc.get((stem,cat,str(w)),[None])[0]
    im=cv2.imread(f'{DATA}/images/{stem}.jpg')
    rows.append((ok,stem,w)+stats(im,l,t,rr,b))
for ok in (1,0):
    sel=[x for x in rows if x[0]==ok]
    a=np.array([x[3:] for x in sel])
    print('oracle',ok,len(sel),'median hue/sat/val/redness/interior',np.round(np.median(a,0),2), 'p10',np.round(np.percentile(a,10,0),2),'p90',np.round(np.percentile(a,90,0),2))
for x in sorted([x for x in rows if x[0]==0],key=lambda x:x[3]): print(x[1],x[2],'hue %.0f sat %.2f val %.2f red %.0f interior %.2f'%x[3:])
