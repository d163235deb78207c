"""An AOR agent in Python with paho-mqtt: connect, wait for a task, ack, progress, result.

    pip install paho-mqtt                                   # or Debian's 1.6: apt install python3-paho-mqtt
    npm run --silent cli -- agents add agent.py --json      # prints the credential once
    MQTT_URL=mqtt://127.0.0.1:1883 AGENT_ID=agent.py AGENT_PASSWORD=... ROOM=demo python3 examples/python/aor_agent.py

It handles one task and exits; the full protocol is in agents/aor/README.md.
"""
import json, os, queue, time, uuid
from urllib.parse import urlparse
import paho.mqtt.client as mqtt

URL = urlparse(os.environ.get("MQTT_URL", "mqtt://127.0.0.1:1883"))
AGENT, PASSWORD, ROOM = os.environ["AGENT_ID"], os.environ["AGENT_PASSWORD"], os.environ.get("ROOM", "demo")
room = lambda kind: f"rooms/{ROOM}/{kind}"
mine = lambda kind: f"rooms/{ROOM}/agents/{AGENT}/{kind}"
tasks, grants = queue.Queue(), set()

def envelope(type_, payload):
    return json.dumps({"id": f"msg_{uuid.uuid4()}", "type": type_, "room_id": ROOM,
                       "from": {"kind": "agent", "id": AGENT}, "ts": int(time.time()), "payload": payload})

def on_connect(client, userdata, flags, reason_code, properties):
    client.subscribe([(room("public"), 1), (room("control"), 1), (mine("inbox"), 1)])
    client.publish(mine("heartbeat"), envelope("heartbeat", {"ts": int(time.time()), "description": "Python example agent"}), qos=1)

def on_message(client, userdata, msg):
    env = json.loads(msg.payload)
    if msg.topic == mine("inbox") and env["type"] == "task":
        tasks.put(env["payload"])
    elif msg.topic == room("control") and env["type"] == "mic_grant" and env["payload"]["agent_id"] == AGENT:
        grants.add(env["payload"]["task_id"])

def post(client, task_id, message_type, content):
    body = envelope("result", {"task_id": task_id, "message_type": message_type, "content": content})
    client.publish(room("public_candidates"), body, qos=1).wait_for_publish()

# paho-mqtt 2 asks which callback signatures to use; 1.6 takes no such argument, and over MQTT 5
# it calls on_connect and on_message with the same arguments as 2's VERSION2.
api = (mqtt.CallbackAPIVersion.VERSION2,) if hasattr(mqtt, "CallbackAPIVersion") else ()
client = mqtt.Client(*api, client_id=f"{AGENT}/py", protocol=mqtt.MQTTv5)
client.username_pw_set(AGENT, PASSWORD)
client.will_set(mine("heartbeat"), envelope("heartbeat", {"ts": int(time.time()), "status": "offline"}), qos=1)
client.on_connect, client.on_message = on_connect, on_message
client.connect(URL.hostname, URL.port or 1883)
client.loop_start()
print(f"{AGENT} is in {ROOM}; waiting for a task.", flush=True)
task = tasks.get(timeout=120)
for _ in range(100):  # the grant is sent just before the task
    if task["task_id"] in grants:
        break
    time.sleep(0.1)
print(f"task {task['task_id']}: {task['goal']}", flush=True)
post(client, task["task_id"], "ack", {"text": "On it."})
post(client, task["task_id"], "progress", {"text": "Halfway there."})
post(client, task["task_id"], "result", {"text": f"Done: {task['goal']}"})
client.publish(mine("heartbeat"), envelope("heartbeat", {"ts": int(time.time()), "status": "offline"}), qos=1).wait_for_publish()
client.disconnect()
client.loop_stop()
