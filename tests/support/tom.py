"""A TOM ``.tdf`` file for the tests, written for them (it copies no real event): five players of a League Cup.

- :data:`LEAGUE_CUP`: the file's bytes, as TOM saves a finished event: five players (one with an apostrophe
  written as ``&apos;``, one with accents, one who dropped after round 2), a pod of all ages with three Swiss
  rounds (a bye in rounds 1 and 2, a tie in round 2, a double loss in round 3) and the final standings, finished and
  dnf, then TOM's top-cut options, which Podium does not read.
"""

from __future__ import annotations

LEAGUE_CUP = """<?xml version="1.0" encoding="utf-8"?>
<tournament type="2" stage="5" version="1.80" gametype="TRADING_CARD_GAME" mode="TCG1DAY">
  <data>
    <name>Pallet Town League Cup</name>
    <id>26-11-000123</id>
    <city>Pallet Town</city>
    <state></state>
    <country>Kanto</country>
    <roundtime>50</roundtime>
    <finalsroundtime>75</finalsroundtime>
    <organizer popid="9000001" name="Samuel Oak"/>
    <startdate>11/21/2026</startdate>
    <lessswiss>false</lessswiss>
    <autotablenumber>true</autotablenumber>
    <overflowtablestart>0</overflowtablestart>
  </data>
  <timeelapsed>0</timeelapsed>
  <players>
    <player userid="1000001">
      <firstname>Ash</firstname>
      <lastname>Ketchum</lastname>
      <birthdate>02/27/1997</birthdate>
      <starter>true</starter>
      <creationdate>11/20/2026 18:02:11</creationdate>
      <lastmodifieddate>11/20/2026 18:02:11</lastmodifieddate>
    </player>
    <player userid="1000002">
      <firstname>Misty</firstname>
      <lastname>O&apos;Hara</lastname>
      <birthdate>02/27/1996</birthdate>
      <starter>true</starter>
      <creationdate>11/20/2026 18:03:40</creationdate>
      <lastmodifieddate>11/20/2026 18:03:40</lastmodifieddate>
    </player>
    <player userid="1000003">
      <firstname>Brock</firstname>
      <lastname>Harrison</lastname>
      <birthdate>02/27/1994</birthdate>
      <starter>true</starter>
      <dropped>
        <status>1</status>
        <round>2</round>
        <timestamp>11/21/2026 12:05:49</timestamp>
      </dropped>
      <creationdate>11/20/2026 18:04:02</creationdate>
      <lastmodifieddate>11/21/2026 12:05:49</lastmodifieddate>
    </player>
    <player userid="1000004">
      <firstname>Zoë</firstname>
      <lastname>Núñez</lastname>
      <birthdate>02/27/2001</birthdate>
      <starter>true</starter>
      <creationdate>11/20/2026 18:05:19</creationdate>
      <lastmodifieddate>11/20/2026 18:05:19</lastmodifieddate>
    </player>
    <player userid="1000005">
      <firstname>Gary</firstname>
      <lastname>Oak</lastname>
      <birthdate>02/27/1997</birthdate>
      <starter>true</starter>
      <creationdate>11/20/2026 18:06:55</creationdate>
      <lastmodifieddate>11/20/2026 18:06:55</lastmodifieddate>
    </player>
  </players>
  <pods>
    <pod category="8" stage="5">
      <poddata>
        <startingtable>1</startingtable>
        <playoff3rd4th>false</playoff3rd4th>
        <subgroupcount>1</subgroupcount>
        <additionalrounds>0</additionalrounds>
      </poddata>
      <rounds>
        <round number="1" type="3" stage="4">
          <timeleft>0</timeleft>
          <pairtime>11/21/2026 10:00:03</pairtime>
          <starttime>11/21/2026 10:05:00</starttime>
          <matches>
            <match outcome="1">
              <player1 userid="1000001"/>
              <player2 userid="1000002"/>
              <timestamp>11/21/2026 10:48:12</timestamp>
              <tablenumber>1</tablenumber>
            </match>
            <match outcome="2">
              <player1 userid="1000003"/>
              <player2 userid="1000004"/>
              <timestamp>11/21/2026 10:51:40</timestamp>
              <tablenumber>2</tablenumber>
            </match>
            <match outcome="5">
              <player userid="1000005"/>
              <timestamp>11/21/2026 10:00:03</timestamp>
              <tablenumber>0</tablenumber>
            </match>
          </matches>
        </round>
        <round number="2" type="3" stage="4">
          <timeleft>0</timeleft>
          <pairtime>11/21/2026 11:00:00</pairtime>
          <starttime>11/21/2026 11:04:00</starttime>
          <matches>
            <match outcome="3">
              <player1 userid="1000001"/>
              <player2 userid="1000004"/>
              <timestamp>11/21/2026 11:55:00</timestamp>
              <tablenumber>1</tablenumber>
            </match>
            <match outcome="1">
              <player1 userid="1000005"/>
              <player2 userid="1000002"/>
              <timestamp>11/21/2026 11:40:21</timestamp>
              <tablenumber>2</tablenumber>
            </match>
            <match outcome="5">
              <player userid="1000003"/>
              <timestamp>11/21/2026 11:00:00</timestamp>
              <tablenumber>0</tablenumber>
            </match>
          </matches>
        </round>
        <round number="3" type="3" stage="6">
          <timeleft>0</timeleft>
          <pairtime>11/21/2026 12:10:00</pairtime>
          <starttime>11/21/2026 12:15:00</starttime>
          <matches>
            <match outcome="10">
              <player1 userid="1000005"/>
              <player2 userid="1000001"/>
              <timestamp>11/21/2026 13:05:00</timestamp>
              <tablenumber>1</tablenumber>
            </match>
            <match outcome="2">
              <player1 userid="1000004"/>
              <player2 userid="1000002"/>
              <timestamp>11/21/2026 12:58:30</timestamp>
              <tablenumber>2</tablenumber>
            </match>
          </matches>
        </round>
      </rounds>
    </pod>
  </pods>
  <standings>
    <pod category="8" type="finished">
      <player id="1000005" place="1"/>
      <player id="1000001" place="2"/>
      <player id="1000004" place="3"/>
      <player id="1000002" place="4"/>
    </pod>
    <pod category="8" type="dnf">
      <player id="1000003" place="5"/>
    </pod>
  </standings>
  <finalsoptions>
    <categorycut key="8">
      <options>
        <value>0</value>
      </options>
      <cut>0</cut>
      <playercount>5</playercount>
      <paired3rd4th>false</paired3rd4th>
    </categorycut>
  </finalsoptions>
</tournament>
""".encode()
